import { z } from "zod";
import { booleanSchema } from "../errors/option-schemas.js";
import { parseOptions } from "../errors/parse-options.js";
import { SkillLoadError } from "./skill-load-error.js";
import { assembleSkill } from "./assemble-skill.js";
import { checkReadSkillMdOptions, readSkillMdFile, skillDirName, type ReadSkillMdOptions } from "./read-skill-file.js";
import type { SkillFileIdentity } from "./skill-file-identity.js";
import type { Skill, SkillMetadata, SkillOrigin } from "./skill-types.js";

/** Options of `loadSkill`. */
export interface LoadSkillOptions extends ReadSkillMdOptions {
  /** Which source the skill comes from (kept on the skill). */
  origin: SkillOrigin;
  /** Refuse a skill with any error diagnostic instead of loading it with its diagnostics. @default false */
  strict?: boolean;
}

/** Options of `loadSkillFromText`. */
export interface LoadSkillFromTextOptions {
  origin: SkillOrigin;
  /** @default false */
  strict?: boolean;
  /** SKILL.md path to record on the skill. @default "" (a skill defined in code) */
  file?: string;
  /** Skill folder to record on the skill. @default "" */
  dir?: string;
  /** Folder name to check the declared name against; left out, the name/folder check is skipped. */
  dirName?: string;
}

/** A skill read from disk together with the identity of the file it came from. */
export interface LoadedSkillFile {
  /** Level 1 (no body). */
  metadata: SkillMetadata;
  /** Level 2: the instructions, also the text to index for search. */
  body: string;
  /** fstat identity of the file that was read: a reload can skip the file while its stat is unchanged. */
  identity: SkillFileIdentity;
}

/**
 * Loads the skill in folder `dir` (no recursion), reading SKILL.md once. Lenient by default: a skill with a usable
 * name and description loads even when it breaks spec rules, carrying them in `diagnostics`.
 * @param dir The skill folder.
 * @param options `origin` (required); `strict` refuses rule-breaking skills; `maxBytes` caps the file size
 *   (@default 1048576); `root` refuses a SKILL.md symlink leading outside that folder.
 * @throws SkillLoadError with the diagnostics when the skill is unusable (or breaks a rule, with `strict`).
 * @example
 * const skill = await loadSkill("./skills/pdf", { origin: { sourceId: "dir:./skills", layer: "project", kind: "directory" } });
 * skill.name; skill.body; skill.diagnostics;
 */
export async function loadSkill(dir: string, options: LoadSkillOptions): Promise<Skill> {
  const { metadata, body } = await loadSkillFile(dir, options);
  return { ...metadata, body };
}

/**
 * Like `loadSkill`, but returns metadata and body apart, plus the file identity for change detection.
 * @throws SkillLoadError as `loadSkill`.
 */
export async function loadSkillFile(dir: string, options: LoadSkillOptions): Promise<LoadedSkillFile> {
  checkLoadOptions(options);
  checkReadSkillMdOptions(options);
  const read = await readSkillMdFile(dir, options);
  if (!read.ok) throw new SkillLoadError({ path: read.file ?? read.dir, diagnostics: read.diagnostics });
  const { body, ...metadata } = assembleSkill({
    text: read.text,
    bytes: read.bytes,
    dir: read.dir,
    file: read.file,
    label: read.file,
    dirName: skillDirName(read.dir),
    origin: options.origin,
    diagnostics: read.diagnostics,
    strict: options.strict ?? false,
  });
  return { metadata, body, identity: read.identity };
}

/**
 * Loads a skill from SKILL.md text held in memory (a skill defined in code), with the same rules as a file.
 * @throws SkillLoadError as `loadSkill`.
 * @example loadSkillFromText("---\nname: greeting\ndescription: Greets.\n---\nSay hello.", { origin: { sourceId: "code:app", layer: "explicit", kind: "code" } })
 */
export function loadSkillFromText(text: string, options: LoadSkillFromTextOptions): Skill {
  checkLoadOptions(options);
  parseOptions(z.string({ error: "must be the SKILL.md text" }), text, "text");
  const file = options.file ?? "";
  return assembleSkill({
    text,
    dir: options.dir ?? "",
    file,
    label: file === "" ? `${options.origin.sourceId} (SKILL.md text)` : file,
    ...(options.dirName === undefined ? {} : { dirName: options.dirName }),
    origin: options.origin,
    strict: options.strict ?? false,
  });
}

const originError = "must be { sourceId, layer, kind }";

/** What loading needs besides the text or folder: the skill's origin, and whether spec breaks refuse it. */
const loadOptionsSchema = z.object(
  {
    origin: z.object({ sourceId: z.string({ error: originError }) }, { error: originError }).loose(),
    strict: booleanSchema().optional(),
  },
  { error: "must be an object with an origin" },
);

/** Checks the load options (InvalidOptionsError naming the option). */
function checkLoadOptions(options: { origin: SkillOrigin; strict?: boolean } | undefined): void {
  parseOptions(loadOptionsSchema, options);
}
