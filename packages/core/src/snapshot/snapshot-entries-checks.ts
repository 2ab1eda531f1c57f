import { isPlainName } from "../internal/snapshot-value-checks.js";
import { isOtherWhitespace } from "../search/term-slots.js";
import { FLAG_HASH, FLAG_RACY, STRING_KINDS, type SnapshotSections } from "./snapshot-binary.js";
import { isStoredDiagnostic, type StoredDiagnostic } from "./stored-diagnostics.js";

// The checks of a snapshot file's sections (it is untrusted input: hand-edited, truncated, from another tool, or
// written by a buggy version): each column by its own short loop over the typed arrays and the string table's code
// units, no string made per entry, and the JSON section field by field. Only then are entries handed out.

/** The JSON section of a snapshot file, once checked. */
export interface SnapshotJson {
  fileNames: string[];
  roots: string[];
  /** Each distinct metadata without what the entry says (name and description "", no folder, file, hash,
   * diagnostics); checked by `firstBadMetadata`. */
  shapes: unknown[];
  /** Per entry, its index in `shapes`; -1 for a refused skill (checked by `firstBadMetadata`). */
  metadata: unknown[];
  /** Each distinct list of diagnostics. */
  diagnosticLists: StoredDiagnostic[][];
  /** `[entry, list]` (an index in `diagnosticLists`) for the entries whose metadata has some, entries increasing. */
  diagnostics: Array<[number, number]>;
  /** `[entry, refusals]` for the refused entries, entries increasing. */
  refused: Array<[number, StoredDiagnostic[]]>;
  scanState: Record<string, unknown>;
}

/** The JSON section when well formed, else what is wrong. */
export function checkJsonSection(value: unknown, count: number): SnapshotJson | string {
  if (!isRecord(value)) return "bad JSON section";
  const { fileNames, roots, shapes, metadata, diagnosticLists, diagnostics, refused, scanState } = value;
  if (!Array.isArray(fileNames) || !fileNames.every(isPlainName)) return "bad 'fileNames'";
  if (!Array.isArray(roots) || !roots.every((root) => typeof root === "string" && root !== "")) return "bad 'roots'";
  if (!Array.isArray(shapes) || !Array.isArray(metadata) || metadata.length !== count) return "bad 'metadata'";
  if (!Array.isArray(diagnosticLists) || !diagnosticLists.every(isDiagnosticList)) return "bad 'diagnostics'";
  if (!isSparse(diagnostics, count, (list) => isIndex(list, diagnosticLists.length))) return "bad 'diagnostics'";
  if (!isSparse(refused, count, isDiagnosticList)) return "bad 'refused'";
  if (scanState !== undefined && !isRecord(scanState)) return "bad 'scanState'";
  return value as unknown as SnapshotJson;
}

/** A non-empty list of well-formed stored diagnostics. */
function isDiagnosticList(list: unknown): list is StoredDiagnostic[] {
  return Array.isArray(list) && list.length > 0 && list.every(isStoredDiagnostic);
}

/** An integer in `[0, length)`. */
function isIndex(value: unknown, length: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

/** `[entry, item]` pairs, entries increasing and below `count`, each item accepted by `isItem`. */
function isSparse(value: unknown, count: number, isItem: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  let previous = -1;
  for (const pair of value) {
    if (!Array.isArray(pair) || pair.length !== 2) return false;
    const [entry, item] = pair as [unknown, unknown];
    if (typeof entry !== "number" || !Number.isInteger(entry) || entry <= previous || entry >= count) return false;
    if (!isItem(item)) return false;
    previous = entry;
  }
  return true;
}

/** Offsets (of the string table, of a table of descriptions) when they start at 0, never decrease and end at `units`. */
export function checkOffsets(offsets: Uint32Array, units: number): boolean {
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== units) return false;
  for (let k = 1; k < offsets.length; k++) if (offsets[k]! < offsets[k - 1]!) return false;
  return true;
}

/**
 * The first entry whose plain columns are malformed (source, folder, file name, root, identity, flags), checked
 * column by column, with what is wrong; undefined when none is.
 */
export function firstBadColumn(
  sections: SnapshotSections,
  limits: { sources: number; fileNames: number; roots: number },
): { at: number; problem: string } | undefined {
  const { count, offsets } = sections;
  const checks: Array<[number, string]> = [
    [firstAbove(sections.source, limits.sources - 1), "unknown source"],
    [firstEmpty(offsets, STRING_KINDS.dir * count, count), "bad 'dir'"],
    [firstAbove(sections.fileName, limits.fileNames - 1), "bad 'file'"],
    [firstAbove(sections.root, limits.roots), "bad 'root'"],
    [firstNotFinite(sections.size), "bad 'identity.size'"],
    [firstNotFinite(sections.ino), "bad 'identity.ino'"],
    [firstNotDecimal(sections, STRING_KINDS.mtimeNs, false), "bad 'identity.mtimeNs'"],
    [firstNotDecimal(sections, STRING_KINDS.ctimeNs, true), "bad 'identity.ctimeNs'"],
    [firstAbove(sections.flags, FLAG_RACY | FLAG_HASH), "bad flags"],
  ];
  let first: { at: number; problem: string } | undefined;
  for (const [at, problem] of checks) if (at >= 0 && (!first || at < first.at)) first = { at, problem };
  return first;
}

function firstAbove(column: Uint32Array | Uint8Array, limit: number): number {
  for (let i = 0; i < column.length; i++) if (column[i]! > limit) return i;
  return -1;
}

function firstNotFinite(column: Float64Array): number {
  for (let i = 0; i < column.length; i++) if (!Number.isFinite(column[i]!)) return i;
  return -1;
}

/** The first of `count` strings from string `first` on that is empty. */
function firstEmpty(offsets: Uint32Array, first: number, count: number): number {
  for (let i = 0; i < count; i++) if (offsets[first + i + 1] === offsets[first + i]) return i;
  return -1;
}

/**
 * The first entry whose string of `kind` is not a decimal without leading zeros of at most 30 digits (nanosecond
 * times); "" allowed where `emptyAllowed`. The strings of a kind are one block of the table: its characters are checked
 * to be digits in one native scan (a loop per character would run in the interpreter on a cold start), then each
 * string's length and first digit.
 */
function firstNotDecimal(sections: SnapshotSections, kind: number, emptyAllowed: boolean): number {
  const { count, offsets, units } = sections;
  const first = kind * count;
  const allDigits = DIGITS.test(textOf(units, offsets[first]!, offsets[first + count]!));
  for (let i = 0; i < count; i++) {
    const start = offsets[first + i]!;
    const length = offsets[first + i + 1]! - start;
    if (length === 0) {
      if (emptyAllowed) continue;
      return i;
    }
    if (length > 30 || (length > 1 && units[start] === 48)) return i;
    if (!allDigits && !DIGITS.test(textOf(units, start, start + length))) return i;
  }
  return -1;
}

const DIGITS = /^[0-9]*$/;

/** The code units `[start, end)` of the string table as a string. */
function textOf(units: Uint8Array | Uint16Array, start: number, end: number): string {
  const width = units.BYTES_PER_ELEMENT;
  return Buffer.from(units.buffer, units.byteOffset + start * width, (end - start) * width).toString(
    width === 1 ? "latin1" : "utf16le",
  );
}

/**
 * The first entry whose metadata or refusal is malformed, with what is wrong: a loaded skill has its metadata (one of
 * the shapes, each checked once; a name that is not blank; a content hash), a refused one a refusal.
 */
export function firstBadMetadata(
  sections: SnapshotSections,
  json: SnapshotJson,
): { at: number; problem: string } | undefined {
  const { count, offsets, units, flags } = sections;
  const refused = new Uint8Array(count);
  for (const [entry] of json.refused) refused[entry] = 1;
  const shapeProblems = json.shapes.map(checkMetadataRest);
  const nameStart = STRING_KINDS.name * count;
  for (let i = 0; i < count; i++) {
    const shape = json.metadata[i];
    if (shape === -1) {
      if (refused[i] === 0) return { at: i, problem: "neither metadata nor refusal" };
      continue;
    }
    if (!isIndex(shape, shapeProblems.length)) return { at: i, problem: "bad 'metadata'" };
    const problem = shapeProblems[shape];
    if (problem) return { at: i, problem };
    if (isBlank(units, offsets[nameStart + i]!, offsets[nameStart + i + 1]!))
      return { at: i, problem: "bad metadata name/description" };
    if ((flags[i]! & FLAG_HASH) === 0) return { at: i, problem: "bad metadata hash" };
  }
  for (const [entry] of json.diagnostics)
    if (json.metadata[entry] === -1) return { at: entry, problem: "bad metadata diagnostics" };
  return undefined;
}

/** Whether the code units `[start, end)` are all whitespace (`\s`, what `trim()` removes), or none. */
function isBlank(units: Uint8Array | Uint16Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = units[at]!;
    if (!(code === 32 || (code >= 9 && code <= 13) || (code >= 0xa0 && isOtherWhitespace(code)))) return false;
  }
  return true;
}

/** What is wrong with a stored metadata's rest (without name and description), or undefined. */
function checkMetadataRest(metadata: unknown): string | undefined {
  if (!isRecord(metadata)) return "bad 'metadata'";
  // The name and description are the string table's and the descriptions'; folder, file, hash and diagnostics are set
  // over whatever this says (snapshot-entries.ts), and so is the origin (by the registry).
  if (metadata.name !== "" || metadata.description !== "") return "bad metadata name/description";
  if (!isStringArray(metadata.allowedTools)) return "bad metadata allowedTools";
  if (!isRecord(metadata.extra)) return "bad metadata extra";
  if (metadata.metadata !== undefined && !isRecord(metadata.metadata)) return "bad metadata metadata";
  for (const key of ["license", "compatibility"] as const)
    if (metadata[key] !== undefined && typeof metadata[key] !== "string") return `bad metadata ${key}`;
  const dependencies = metadata.dependencies;
  if (
    dependencies !== undefined &&
    !(
      isRecord(dependencies) &&
      isStringArray(dependencies.bins) &&
      isStringArray(dependencies.apt) &&
      isStringArray(dependencies.uv)
    )
  )
    return "bad metadata dependencies";
  return undefined;
}

function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
