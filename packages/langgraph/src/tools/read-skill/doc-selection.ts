import { SkillgraphError, type SkillCatalog } from "../../internal/core.js";
import type { SkillLoadEvent } from "../../internal/core.js";

/** Most reference files one skill's selection holds (model input is untrusted). */
export const MAX_SELECTED_DOCS = 16;
/** Longest path accepted in a selection. */
export const MAX_DOC_PATH_CHARS = 512;

/** How a read_skill call changes the skill's docs selection. */
export type DocsMode = "add" | "replace" | "clear";

/** What a read_skill call asked for and what was kept. */
export interface DocSelection {
  mode: DocsMode;
  /** Paths accepted (readable through the registry's confined reader, within the caps), normalised as the registry returns them. */
  selected: string[];
  /** Paths refused, with the reason (shown to the model). */
  refused: Array<{ path: string; reason: string }>;
  /** Load events recording the change (undoc before doc in the same step). */
  events: SkillLoadEvent[];
  /** The skill's selection after this call. */
  after: string[];
}

/** Whether a read_skill call touches the docs selection at all. */
export function asksForDocs(args: unknown): boolean {
  if (!args || typeof args !== "object") return false;
  const record = args as Record<string, unknown>;
  return record.docs !== undefined || record.include_all_docs === true || record.docs_mode !== undefined;
}

/**
 * Reads `docs` / `include_all_docs` / `docs_mode` of a read_skill call, checks every path by reading it through the
 * registry's confined reader (size-capped, binary refused), and caps the count and the total size of the selection.
 */
export async function selectDocs(
  args: unknown,
  skill: string,
  catalog: SkillCatalog,
  current: readonly string[],
  limits: { maxResourceBytes: number; seq: number },
): Promise<DocSelection> {
  const record = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  const refused: DocSelection["refused"] = [];
  const modeArg = record.docs_mode;
  const mode: DocsMode = modeArg === "replace" || modeArg === "clear" ? modeArg : "add";
  if (modeArg !== undefined && modeArg !== "add" && modeArg !== "replace" && modeArg !== "clear")
    refused.push({ path: String(modeArg).slice(0, 40), reason: "docs_mode must be add, replace or clear; used add" });
  let wanted: string[] = [];
  if (record.include_all_docs === true) {
    const files = await catalog.listFiles(skill).catch(() => []);
    wanted = files.filter((file) => !file.path.startsWith("scripts/")).map((file) => file.path);
  }
  if (Array.isArray(record.docs)) {
    for (const item of record.docs.slice(0, MAX_SELECTED_DOCS * 4)) {
      if (typeof item !== "string" || item.trim() === "")
        refused.push({ path: JSON.stringify(item).slice(0, 40), reason: "not a path string" });
      else if (item.length > MAX_DOC_PATH_CHARS)
        refused.push({ path: `${item.slice(0, 40)}...`, reason: `longer than ${MAX_DOC_PATH_CHARS} characters` });
      else wanted.push(item.trim());
    }
  } else if (record.docs !== undefined)
    refused.push({ path: "docs", reason: "docs must be a list of paths relative to the skill folder" });
  if (mode === "clear") wanted = [];
  const base = mode === "add" ? [...current] : [];
  const selected: string[] = [];
  let total = 0;
  const budget = limits.maxResourceBytes * 4;
  for (const path of [...new Set(wanted)]) {
    if (base.length + selected.length >= MAX_SELECTED_DOCS) {
      refused.push({ path, reason: `the selection holds at most ${MAX_SELECTED_DOCS} files` });
      continue;
    }
    try {
      const file = await catalog.readFile(skill, path, { maxBytes: limits.maxResourceBytes });
      if (file.size > limits.maxResourceBytes) {
        refused.push({ path, reason: `${file.size} bytes is over the ${limits.maxResourceBytes}-byte limit` });
        continue;
      }
      if (total + file.size > budget) {
        refused.push({ path, reason: `the selection's files may total at most ${budget} bytes` });
        continue;
      }
      total += file.size;
      if (!base.includes(file.path) && !selected.includes(file.path)) selected.push(file.path);
    } catch (error) {
      if (!SkillgraphError.isInstance(error) && !(error instanceof Error)) throw error;
      refused.push({ path, reason: (error as Error).message });
    }
  }
  const events: SkillLoadEvent[] = [];
  if (mode !== "add") events.push({ type: "undoc", name: skill, seq: limits.seq });
  for (const path of selected) events.push({ type: "doc", name: skill, path, seq: limits.seq });
  return { mode, selected, refused, events, after: [...new Set([...base, ...selected])].sort() };
}
