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

type Refusals = DocSelection["refused"];

/** Where a selection's paths are read: the skill in its catalog, the per-file cap, and the refusals noted so far. */
interface DocReader {
  catalog: SkillCatalog;
  skill: string;
  maxResourceBytes: number;
  refused: Refusals;
}

/** What a selection starts from: the skill, its catalog, its current docs, the per-file cap and the event seq. */
export interface DocSelectionInput {
  skill: string;
  catalog: SkillCatalog;
  current: readonly string[];
  maxResourceBytes: number;
  seq: number;
}

/**
 * Reads `docs` / `include_all_docs` / `docs_mode` of a read_skill call, checks every path by reading it through the
 * registry's confined reader (size-capped, binary refused), and caps the count and the total size of the selection.
 */
export async function selectDocs(
  args: unknown,
  { skill, catalog, current, maxResourceBytes, seq }: DocSelectionInput,
): Promise<DocSelection> {
  const record = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  const refused: Refusals = [];
  const mode = docsMode(record.docs_mode, refused);
  const asked = await wantedPaths(record, skill, catalog, refused); // read under clear too: its refusals are shown
  const wanted = mode === "clear" ? [] : asked;
  const base = mode === "add" ? [...current] : [];
  const selected = await admitDocs({ catalog, skill, maxResourceBytes, refused }, wanted, base);
  const events: SkillLoadEvent[] = [];
  if (mode !== "add") events.push({ type: "undoc", name: skill, seq });
  for (const path of selected) events.push({ type: "doc", name: skill, path, seq });
  return { mode, selected, refused, events, after: [...new Set([...base, ...selected])].sort() };
}

/** The call's `docs_mode`; anything but add / replace / clear is refused (noted) and read as add. */
function docsMode(modeArg: unknown, refused: Refusals): DocsMode {
  if (modeArg === "replace" || modeArg === "clear") return modeArg;
  if (modeArg !== undefined && modeArg !== "add")
    refused.push({ path: String(modeArg).slice(0, 40), reason: "docs_mode must be add, replace or clear; used add" });
  return "add";
}

/** The paths the call asks for: every non-script file under `include_all_docs`, then the `docs` strings (malformed ones refused). */
async function wantedPaths(
  record: Record<string, unknown>,
  skill: string,
  catalog: SkillCatalog,
  refused: Refusals,
): Promise<string[]> {
  const wanted: string[] = [];
  if (record.include_all_docs === true) {
    const files = await catalog.listFiles(skill).catch(() => []);
    for (const file of files) if (!file.path.startsWith("scripts/")) wanted.push(file.path);
  }
  if (record.docs !== undefined && !Array.isArray(record.docs)) {
    refused.push({ path: "docs", reason: "docs must be a list of paths relative to the skill folder" });
    return wanted;
  }
  for (const item of (record.docs as unknown[] | undefined)?.slice(0, MAX_SELECTED_DOCS * 4) ?? []) {
    if (typeof item !== "string" || item.trim() === "")
      refused.push({ path: JSON.stringify(item).slice(0, 40), reason: "not a path string" });
    else if (item.length > MAX_DOC_PATH_CHARS)
      refused.push({ path: `${item.slice(0, 40)}...`, reason: `longer than ${MAX_DOC_PATH_CHARS} characters` });
    else wanted.push(item.trim());
  }
  return wanted;
}

/**
 * Reads each wanted path through the registry's confined reader and keeps those within the caps (count, per-file size,
 * total of four files' worth); returns the newly selected paths (normalised, not already in `base`).
 */
async function admitDocs(reader: DocReader, wanted: readonly string[], base: readonly string[]): Promise<string[]> {
  const { maxResourceBytes, refused } = reader;
  const selected: string[] = [];
  let total = 0;
  const budget = maxResourceBytes * 4;
  for (const path of new Set(wanted)) {
    if (base.length + selected.length >= MAX_SELECTED_DOCS) {
      refused.push({ path, reason: `the selection holds at most ${MAX_SELECTED_DOCS} files` });
      continue;
    }
    const size = await readableSize(reader, path);
    if (size === undefined) continue;
    if (size.bytes > maxResourceBytes) {
      refused.push({ path, reason: `${size.bytes} bytes is over the ${maxResourceBytes}-byte limit` });
    } else if (total + size.bytes > budget) {
      refused.push({ path, reason: `the selection's files may total at most ${budget} bytes` });
    } else {
      total += size.bytes;
      if (!base.includes(size.path) && !selected.includes(size.path)) selected.push(size.path);
    }
  }
  return selected;
}

/** Reads one path through the confined reader: its normalised path and size, or undefined (the refusal noted) when it cannot be read. */
async function readableSize(
  { catalog, skill, maxResourceBytes, refused }: DocReader,
  path: string,
): Promise<{ path: string; bytes: number } | undefined> {
  try {
    const file = await catalog.readFile(skill, path, { maxBytes: maxResourceBytes });
    return { path: file.path, bytes: file.size };
  } catch (error) {
    if (!SkillgraphError.isInstance(error) && !(error instanceof Error)) throw error;
    refused.push({ path, reason: (error as Error).message });
    return undefined;
  }
}
