import { isAbsolute, normalize, sep } from "node:path";
import type { SkillPathReason } from "../errors/error-codes.js";
import { SkillPathError } from "../errors/skill-path-error.js";
import { isBinaryContent, TEXT_SNIFF_BYTES } from "../safe-fs/binary-content.js";
import { type ConfinedFolder, type ConfinedRefusal, withConfinedFolder } from "../safe-fs/confined-folder.js";
import type { SkillFileContent, SkillFileEntry } from "./registry-types.js";

/** Default cap on one resource file read (256 KiB). */
export const DEFAULT_MAX_RESOURCE_BYTES = 256 * 1024;
/** Symlinks followed at most per read, and only while their targets stay inside the skill folder. */
const LINK_HOPS = 8;
/** At most this many files are listed for one skill. */
export const MAX_LISTED_FILES = 1000;

/** How a skill folder's files are served. */
export interface SkillResourceRules {
  /**
   * Refuse (and leave out of listings) files with more than one hard link: the same file has another name, possibly
   * outside the skill. Off for installed packages only, whose files package managers hard-link to a shared store.
   */
  refuseHardLinks: boolean;
}

/** The rules for a folder source (the default): hard links refused. */
export const FOLDER_RESOURCE_RULES: SkillResourceRules = { refuseHardLinks: true };

/**
 * The first of a resolved path's parent folders (with a trailing slash) that holds a SKILL.md: a nested skill's own
 * folder, whose files belong to that skill, not to the one whose folder is `folder`; undefined when there is none.
 */
export async function nestedSkillFolder(folder: ConfinedFolder, resolved: string): Promise<string | undefined> {
  const names = resolved.split("/").slice(0, -1);
  for (let depth = 1; depth <= names.length; depth++) {
    const prefix = names.slice(0, depth).join("/");
    for (const marker of ["SKILL.md", "skill.md"]) {
      const probe = await folder.readFile(`${prefix}/${marker}`, { maxBytes: Number.MAX_SAFE_INTEGER, headBytes: 0 });
      if (probe.ok || (probe.reason !== "not-found" && probe.reason !== "not-a-folder")) return `${prefix}/`;
    }
  }
  return undefined;
}

/** Checks a model-supplied relative path before it touches the file system; returns the normalised relative path. */
export function checkRelativePath(skillName: string, requested: string): string {
  const refuse = (reason: SkillPathReason, message: string): never => {
    throw new SkillPathError({
      skillName,
      requestedPath: requested,
      reason,
      message: `${message} (skill '${skillName}', path '${requested.replace(/\0/g, "\\0")}')`,
    });
  };
  if (requested.includes("\0")) refuse("nul-byte", "path contains a NUL byte");
  if (requested.trim() === "") refuse("not-found", "path is empty");
  if (isAbsolute(requested) || /^[a-zA-Z]:[\\/]/.test(requested) || requested.startsWith("\\"))
    refuse("absolute", "absolute paths are not allowed; give a path relative to the skill folder");
  const normal = normalize(requested.replace(/\\/g, "/"));
  if (normal === ".." || normal.startsWith(`..${sep}`) || normal.split(sep).includes(".."))
    refuse("traversal", "path leaves the skill folder");
  return normal.split(sep).join("/");
}

/**
 * Lists the files of a skill folder: no SKILL.md, no nested skills' folders, no dot-files or node_modules, no hard
 * links (unless the rules allow them), and only symlinks that lead to a file inside the folder and outside nested
 * skills (resolved race-free, see safe-fs/confined-folder.ts).
 */
export async function listSkillFiles(
  skillDir: string,
  rules: SkillResourceRules = FOLDER_RESOURCE_RULES,
): Promise<SkillFileEntry[]> {
  return withConfinedFolder(skillDir, async (folder) => {
    const listed = await folder.list("", {
      maxEntries: MAX_LISTED_FILES * 4,
      maxDepth: 8,
      skip: (name) => name.startsWith(".") || name === "node_modules",
    });
    if (!listed.ok) return [];
    const nestedSkills = listed.entries
      .filter((entry) => entry.kind === "file" && /\/(SKILL|skill)\.md$/.test(entry.path))
      .map((entry) => `${entry.path.slice(0, entry.path.lastIndexOf("/"))}/`);
    const files: SkillFileEntry[] = [];
    for (const entry of listed.entries) {
      if (files.length >= MAX_LISTED_FILES) break;
      if (
        entry.path === "SKILL.md" ||
        entry.path === "skill.md" ||
        nestedSkills.some((folder) => entry.path.startsWith(folder))
      )
        continue;
      if (entry.kind === "file") {
        if (!(rules.refuseHardLinks && (entry.links ?? 1) > 1)) files.push({ path: entry.path, size: entry.size ?? 0 });
      } else if (entry.kind === "symlink") {
        // listed only when it leads to a regular file inside the skill folder, outside any nested skill
        const target = await folder.readFile(entry.path, {
          maxBytes: Number.MAX_SAFE_INTEGER,
          headBytes: 0,
          followInsideLinks: LINK_HOPS,
          refuseHardLinks: rules.refuseHardLinks,
        });
        if (target.ok && (await nestedSkillFolder(folder, target.path)) === undefined)
          files.push({ path: entry.path, size: target.size });
      }
    }
    return files;
  });
}

const refusalReasons: Record<ConfinedRefusal, SkillPathReason> = {
  "invalid-path": "traversal",
  "not-found": "not-found",
  symlink: "symlink-escape",
  "not-a-file": "not-a-file",
  "not-a-folder": "not-found",
  "too-large": "too-large",
  exists: "not-a-file",
  "io-error": "not-found",
};

/**
 * Reads one resource file of a skill: confined to the skill folder and race-free (walked from the folder's descriptor
 * with O_NOFOLLOW, opened with O_NONBLOCK, type, size and link count checked on the descriptor), size-capped, text
 * only. A file inside a nested skill's folder belongs to that skill (which may be hidden from this agent) and is
 * refused, however the path reaches it (through a symlink too).
 */
export async function readSkillResource(
  skillName: string,
  skillDir: string,
  requested: string,
  {
    maxBytes = DEFAULT_MAX_RESOURCE_BYTES,
    rules = FOLDER_RESOURCE_RULES,
  }: { maxBytes?: number; rules?: SkillResourceRules } = {},
): Promise<SkillFileContent> {
  const rel = checkRelativePath(skillName, requested);
  const { read, nested } = await withConfinedFolder(skillDir, async (folder) => {
    const result = await folder.readFile(rel, {
      maxBytes,
      followInsideLinks: LINK_HOPS,
      refuseHardLinks: rules.refuseHardLinks,
    });
    return { read: result, nested: result.ok ? await nestedSkillFolder(folder, result.path) : undefined };
  });
  const shown = requested.replace(/\0/g, "\\0");
  if (nested !== undefined)
    throw new SkillPathError({
      skillName,
      requestedPath: requested,
      reason: "not-found",
      message: `'${nested}' is another skill's folder; its files are not part of this skill (skill '${skillName}', path '${shown}')`,
    });
  if (!read.ok) {
    const message =
      read.reason === "symlink"
        ? "path goes through a symbolic link, which is never followed"
        : read.reason === "not-a-file"
          ? read.message.includes("hard link")
            ? "file is a hard link (the same file has another name, possibly outside the skill), which is never served"
            : "path is a folder or not a regular file; use list_skill_files"
          : read.reason === "too-large"
            ? `file is over the ${maxBytes}-byte limit`
            : "no such file in the skill folder";
    throw new SkillPathError({
      skillName,
      requestedPath: requested,
      reason: refusalReasons[read.reason],
      message: `${message} (skill '${skillName}', path '${shown}')`,
    });
  }
  const head = read.bytes.subarray(0, TEXT_SNIFF_BYTES);
  if (isBinaryContent(head, { complete: head.length === read.bytes.length })) {
    throw new SkillPathError({
      skillName,
      requestedPath: requested,
      reason: "binary",
      message: `file is binary; only text files can be read (skill '${skillName}', path '${shown}')`,
    });
  }
  return { path: rel, size: read.bytes.length, content: read.bytes.toString("utf8") };
}
