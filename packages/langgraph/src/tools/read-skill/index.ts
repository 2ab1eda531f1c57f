import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { READ_SKILL } from "../../options/discovery-tool-names.js";
import { installHints, type SkillDependencies } from "../../internal/core.js";
import { runsInInterceptor, skillNameSchema } from "../skill-name-schema.js";
import {
  stringArg,
  toolError,
  unknownSkill,
  type SkillsToolContext,
  type SkillsToolOutcome,
} from "../skills-tool-context.js";
import { asksForDocs, type DocSelection, MAX_SELECTED_DOCS, selectDocs } from "./doc-selection.js";

/** Name of the level-2 tool. */
export { READ_SKILL } from "../../options/discovery-tool-names.js";

const MAX_LISTED_FILES = 50;

/** The model-facing `read_skill` tool (schema only; the interceptor runs it): a skill by name, optionally with reference files. */
export function buildReadSkillTool(names: readonly string[], enumThreshold: number): StructuredToolInterface {
  return tool(runsInInterceptor(READ_SKILL), {
    name: READ_SKILL,
    description:
      "Load a skill: returns its full instructions and the list of its files. Call it before doing a task a listed skill covers. " +
      "Optionally pick reference files to keep shown with the instructions while the skill is loaded (docs / include_all_docs); " +
      "call it again on a loaded skill to add, replace or clear that selection.",
    schema: z.object({
      name: skillNameSchema(names, enumThreshold).optional(),
      path: z.string().optional().describe("Instead of name: the skill's folder or SKILL.md path, as listed"),
      docs: z
        .array(z.string())
        .max(MAX_SELECTED_DOCS)
        .optional()
        .describe("Reference files to show with the instructions, paths relative to the skill folder"),
      include_all_docs: z
        .boolean()
        .optional()
        .describe("Select every reference file of the skill (not scripts/), within the size caps"),
      docs_mode: z
        .enum(["add", "replace", "clear"])
        .optional()
        .describe("How docs change the current selection (default add)"),
    }),
  });
}

/** Loads a skill: records it in state (name, mode, hash; no body) and answers with a stub the request builder fills with the body. */
export async function runReadSkill(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const resolved = skillByNameOrPath(args, context);
  if ("error" in resolved) return toolError(resolved.error);
  const { name } = resolved;
  const skill = name === undefined || context.state.disabled.includes(name) ? undefined : context.catalog.get(name);
  if (!skill || name === undefined) return unknownSkill(context, name);
  const mode = context.options.loadModes[name] ?? context.options.loadMode;
  const tools = context.ownedTools(name).map((owned) => owned.name);
  const files = await context.catalog.listFiles(name).catch(() => []);
  const lines = [
    `Skill '${name}' loaded (mode: ${mode}).`,
    ...(skill.dir ? [`Skill folder: ${skill.dir}`] : []),
    ...fileListLines(files),
    ...(tools.length > 0 ? [`Tools unlocked by this skill: ${tools.join(", ")}`] : []),
    ...dependencyLines(skill.dependencies),
  ];
  const seq = context.state.load.seq + 1;
  const { docs, selection } = await docsAfterCall(args, name, context, seq);
  if (docs.length > 0)
    lines.push(`Reference files shown with these instructions while the skill is loaded: ${docs.join(", ")}`);
  for (const refused of selection?.refused ?? []) lines.push(`Not selected: ${refused.path} (${refused.reason})`);
  return {
    content: lines.join("\n"),
    artifact: {
      kind: "skill-body",
      agentId: context.agentId,
      skill: name,
      hash: skill.hash,
      ...(docs.length > 0 ? { docs } : {}),
    },
    update: { events: [{ type: "load", name, mode, hash: skill.hash, seq }, ...(selection?.events ?? [])] },
    events: [
      { type: "skill-loaded", agentId: context.agentId, skill: name, mode, hash: skill.hash },
      ...(tools.length > 0 ? [{ type: "tools-unlocked" as const, agentId: context.agentId, skill: name, tools }] : []),
    ],
  };
}

/** The "Files in this skill" lines of a read_skill answer (at most MAX_LISTED_FILES, then a count of the rest). */
function fileListLines(files: ReadonlyArray<{ path: string; size: number }>): string[] {
  if (files.length === 0) return [];
  const lines = [`Files in this skill (read them with read_skill_file):`];
  for (const file of files.slice(0, MAX_LISTED_FILES)) lines.push(`- ${file.path} (${file.size} bytes)`);
  if (files.length > MAX_LISTED_FILES)
    lines.push(`- ... ${files.length - MAX_LISTED_FILES} more (list_skill_files shows all)`);
  return lines;
}

/** The declared-dependencies lines of a read_skill answer, with install hints; none when the skill declares none. */
function dependencyLines(needs: SkillDependencies | undefined): string[] {
  if (!needs || needs.bins.length + needs.apt.length + needs.uv.length === 0) return [];
  const declared = [
    needs.bins.length > 0 ? `programs ${needs.bins.join(", ")}` : "",
    needs.apt.length > 0 ? `Debian packages ${needs.apt.join(", ")}` : "",
    needs.uv.length > 0 ? `Python packages ${needs.uv.join(", ")}` : "",
  ];
  return [
    `Declared dependencies (skillgraph installs none): ${declared.filter(Boolean).join("; ")}.`,
    ...installHints(needs).map((hint) => `If missing, the user can install them with: ${hint}`),
  ];
}

/** The skill's docs selection after this call: changed by `docs` / `include_all_docs` / `docs_mode`, else kept. */
async function docsAfterCall(
  args: unknown,
  name: string,
  context: SkillsToolContext,
  seq: number,
): Promise<{ docs: string[]; selection: DocSelection | undefined }> {
  const current = context.state.load.loaded[name]?.docs ?? [];
  if (!asksForDocs(args)) return { docs: [...current], selection: undefined };
  const { maxResourceBytes } = context.options;
  const selection = await selectDocs(args, { skill: name, catalog: context.catalog, current, maxResourceBytes, seq });
  return { docs: selection.after, selection };
}

/** What a read_skill call's `name` / `path` arguments resolve to: a skill name, or an error to answer with. */
export type SkillArgResolution = { name: string | undefined } | { error: string };

/**
 * The skill a read_skill call names: `name`, or `path` / `skill_path` (the skill folder or its SKILL.md, absolute as
 * listed, or ending in `<name>/SKILL.md`). A `name` and a path naming different skills is an error saying so. Only
 * compared with the catalog's own paths: no file is touched for a path argument.
 */
export function skillByNameOrPath(args: unknown, context: SkillsToolContext): SkillArgResolution {
  const name = stringArg(args, "name", "skill", "skill_name");
  const pathArg = typeof args === "string" ? undefined : stringArg(args, "path", "skill_path", "location");
  const path = pathArg ?? (name !== undefined && /[\\/]/.test(name) ? name : undefined);
  if (path === undefined) return { name };
  const byPath = path.length > 4096 ? undefined : skillAtPath(path, context);
  if (pathArg !== undefined && name !== undefined && name !== path && context.catalog.has(name) && byPath !== name)
    return {
      error:
        byPath === undefined
          ? `read_skill was given name '${name}' and path '${path}', but that path is not the folder of '${name}' (or of any listed skill). Pass only one of them.`
          : `read_skill was given name '${name}' and path '${path}', which names a different skill ('${byPath}'). Pass only one of them.`,
    };
  if (name !== undefined && context.catalog.has(name)) return { name };
  return { name: byPath ?? name ?? path };
}

/** The listed skill whose folder (or SKILL.md) a path names, compared with the catalog's paths only. */
function skillAtPath(path: string, context: SkillsToolContext): string | undefined {
  const folder = path
    .replace(/[\\/]+$/, "")
    .replace(/[\\/]SKILL\.md$/i, "")
    .replace(/\\/g, "/");
  for (const skill of context.catalog.list()) {
    const dir = skill.dir?.replace(/\\/g, "/").replace(/\/+$/, "");
    if (dir !== undefined && dir === folder) return skill.name;
  }
  const last = folder.split("/").pop();
  if (last && context.catalog.has(last)) {
    const dir = context.catalog.get(last)?.dir?.replace(/\\/g, "/");
    if (dir === undefined || dir.endsWith(`/${folder}`) || dir.endsWith(folder)) return last;
  }
  return undefined;
}
