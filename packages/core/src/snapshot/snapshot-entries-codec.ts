import {
  frontDecoded,
  isDecimal,
  isIndex,
  isPlainName,
  sharedPrefixLength,
} from "../internal/snapshot-value-checks.js";
import type { StoredCandidate } from "./stored-candidate.js";
import { readDiagnostics, storeDiagnostic, type StoredDiagnostic } from "./stored-diagnostics.js";

// How a snapshot file stores its entries (format 2): one array per field instead of one object per entry, paths
// front-coded (each folder path stored as the length it shares with the previous one plus the rest), and everything
// the entry already says left out of its metadata (folder, file, hash) and diagnostics (the file path in `path` and at
// the head of `message`). For 10 000 skills this is about half the bytes of one JSON object per entry and a
// small fraction of the objects to parse, which is most of what a cold start with a snapshot spends. Measured against
// one object per entry checked by a zod schema (`pnpm bench snapshot-codec`, figures in docs/registry.md): about a
// quarter of the cold start's CPU time at 1 000 and 10 000 skills, so the columns stay.

/** The entries of a snapshot file as stored (columnar). All arrays have `count` items. */
export interface StoredSnapshotEntries {
  count: number;
  /** Index into the file's `sources`. */
  source: number[];
  /** Characters the folder path shares with the previous entry's. */
  dirShared: number[];
  /** The rest of the folder path. */
  dirRest: string[];
  /** Index into `fileNames`: the SKILL.md is `dir + "/" + fileNames[i]`. */
  fileName: number[];
  fileNames: string[];
  /** 0: the skill folder is its own root; i > 0: `roots[i - 1]`. */
  root: number[];
  roots: string[];
  size: number[];
  ino: number[];
  /** Decimal nanoseconds. */
  mtimeNs: string[];
  /** Decimal nanoseconds; "" when equal to `mtimeNs`. */
  ctimeNs: string[];
  /** sha256 hex of the bytes read; "" when the file could not be read. */
  hash: string[];
  /** 1: racily clean when written. */
  verify: number[];
  /** The metadata without `dir`, `file`, `hash`, `origin` and `diagnostics`; 0 for a refused skill. */
  metadata: Array<Record<string, unknown> | 0>;
  /** The metadata's diagnostics. */
  diagnostics: StoredDiagnostic[][];
  /** Why a skill was refused (empty for a loaded one). */
  refused: StoredDiagnostic[][];
}

/**
 * Stores entries (sorted by folder by the caller, so that neighbours share long prefixes). An entry whose paths or
 * hash do not have the shape the format derives (never the case for a folder source) is left out: the registry then
 * reads that file again on the next start instead of trusting it.
 */
export function encodeSnapshotEntries(
  entries: readonly StoredCandidate[],
  sources: readonly string[],
): StoredSnapshotEntries {
  const stored: StoredSnapshotEntries = {
    count: 0,
    source: [],
    dirShared: [],
    dirRest: [],
    fileName: [],
    fileNames: [],
    root: [],
    roots: [],
    size: [],
    ino: [],
    mtimeNs: [],
    ctimeNs: [],
    hash: [],
    verify: [],
    metadata: [],
    diagnostics: [],
    refused: [],
  };
  const sourceIndex = new Map(sources.map((id, index) => [id, index]));
  const fileNameIndex = new Map<string, number>();
  const rootIndex = new Map<string, number>();
  let previousDir = "";
  for (const entry of entries) {
    const source = sourceIndex.get(entry.sourceId);
    const fileName = entry.file.slice(entry.dir.length + 1);
    if (source === undefined || entry.file !== `${entry.dir}/${fileName}` || !isPlainName(fileName)) continue;
    if (entry.metadata && (entry.metadata.hash !== entry.hash || entry.metadata.dir !== entry.dir)) continue;
    if (entry.metadata && entry.metadata.file !== entry.file) continue;
    const shared = sharedPrefixLength(previousDir, entry.dir);
    stored.source.push(source);
    stored.dirShared.push(shared);
    stored.dirRest.push(entry.dir.slice(shared));
    previousDir = entry.dir;
    stored.fileName.push(indexOf(fileNameIndex, stored.fileNames, fileName));
    stored.root.push(entry.root === entry.dir ? 0 : indexOf(rootIndex, stored.roots, entry.root) + 1);
    stored.size.push(entry.identity.size);
    stored.ino.push(entry.identity.ino);
    stored.mtimeNs.push(entry.identity.mtimeNs);
    stored.ctimeNs.push(entry.identity.ctimeNs === entry.identity.mtimeNs ? "" : entry.identity.ctimeNs);
    stored.hash.push(entry.hash ?? "");
    stored.verify.push(entry.racy ? 1 : 0);
    if (entry.metadata) {
      const { dir: _dir, file: _file, hash: _hash, diagnostics, ...rest } = entry.metadata;
      stored.metadata.push(rest);
      stored.diagnostics.push(diagnostics.map((diagnostic) => storeDiagnostic(diagnostic, entry.file)));
    } else {
      stored.metadata.push(0);
      stored.diagnostics.push([]);
    }
    stored.refused.push(entry.refused.map((diagnostic) => storeDiagnostic(diagnostic, entry.file)));
    stored.count++;
  }
  return stored;
}

/**
 * Reads stored entries back, checking every field (a snapshot is untrusted input: hand-edited, truncated, from another
 * tool). Returns the entries, or what is wrong (the first bad entry of the plain columns, else of the diagnostics and
 * metadata); never throws.
 *
 * The plain columns are checked first, each by its own short loop, and only then are the entries put together: a
 * function called once per entry would be compiled by the optimizing JIT during the load with everything it calls
 * inlined, which costs more CPU on a cold start than the whole decode (measured with `--trace-opt`).
 */
export function decodeSnapshotEntries(
  value: unknown,
  sources: readonly string[],
): { ok: true; entries: StoredCandidate[] } | { ok: false; problem: string } {
  const table = checkColumns(value);
  if (typeof table === "string") return { ok: false, problem: table };
  const dirs = frontDecodedFolders(table.dirShared, table.dirRest);
  const columnProblem = firstBadColumnValue(table, sources.length, typeof dirs === "number" ? dirs : -1);
  if (columnProblem) return { ok: false, problem: `entry ${columnProblem.at}: ${columnProblem.problem}` };
  if (typeof dirs === "number") return { ok: false, problem: `entry ${dirs}: bad 'dir'` };
  const { count, fileName, fileNames, root, roots, hash, verify } = table;
  const entries: StoredCandidate[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const dir = dirs[i]!;
    const file = `${dir}/${fileNames[fileName[i]!]!}`;
    const refused = readDiagnostics(table.refused[i], file);
    if (!refused) return { ok: false, problem: `entry ${i}: bad 'refused'` };
    const completed = decodeMetadata(table, i, { dir, file, hash: hash[i]!, refused });
    if (typeof completed === "string") return { ok: false, problem: `entry ${i}: ${completed}` };
    const rootIndex = root[i]!;
    entries[i] = {
      sourceId: sources[table.source[i]!]!,
      dir,
      file,
      root: rootIndex === 0 ? dir : roots[rootIndex - 1]!,
      identity: identityAt(table, i),
      hash: hash[i] === "" ? undefined : hash[i],
      metadata: completed,
      refused,
      racy: verify[i] === 1,
    };
  }
  return { ok: true, entries };
}

/** The columns, once their count, lengths and shared tables are checked; else what is wrong. */
function checkColumns(value: unknown): StoredSnapshotEntries | string {
  if (!isRecord(value)) return "bad 'entries'";
  const count = value.count;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) return "bad 'entries.count'";
  for (const key of COLUMNS)
    if (!Array.isArray(value[key]) || (value[key] as unknown[]).length !== count) return `bad 'entries.${key}'`;
  const { fileNames, roots } = value;
  if (!Array.isArray(fileNames) || !fileNames.every(isPlainName)) return "bad 'entries.fileNames'";
  if (!Array.isArray(roots) || !roots.every((root) => typeof root === "string" && root !== ""))
    return "bad 'entries.roots'";
  return value as unknown as StoredSnapshotEntries;
}

/**
 * The first entry whose plain columns (source, folder, file name, root, identity, hash, verify) are malformed, checked
 * column by column (`badFolder`: the first entry whose folder path did not decode, or -1).
 */
function firstBadColumnValue(
  table: StoredSnapshotEntries,
  sourceCount: number,
  badFolder: number,
): { at: number; problem: string } | undefined {
  const checks: Array<[number, string]> = [
    [firstNotIndex(table.source, sourceCount), "unknown source"],
    [badFolder, "bad 'dir'"],
    [firstNotIndex(table.fileName, table.fileNames.length), "bad 'file'"],
    [firstNotIndex(table.root, table.roots.length + 1), "bad 'root'"],
    [firstNotFinite(table.size), "bad 'identity.size'"],
    [firstNotFinite(table.ino), "bad 'identity.ino'"],
    [firstNotDecimal(table.mtimeNs, false), "bad 'identity.mtimeNs'"],
    [firstNotDecimal(table.ctimeNs, true), "bad 'identity.ctimeNs'"],
    [firstNotHash(table.hash), "bad 'hash'"],
    [firstNotIndex(table.verify, 2), "bad 'verify'"],
  ];
  let first: { at: number; problem: string } | undefined;
  for (const [at, problem] of checks) if (at >= 0 && (!first || at < first.at)) first = { at, problem };
  return first;
}

function firstNotIndex(column: readonly unknown[], length: number): number {
  for (let i = 0; i < column.length; i++) if (!isIndex(column[i], length)) return i;
  return -1;
}

/** The folder paths of front-coded columns, or the first entry whose path does not decode (an empty one included). */
function frontDecodedFolders(shared: readonly unknown[], rest: readonly unknown[]): string[] | number {
  const dirs: string[] = new Array(shared.length);
  let dir = "";
  for (let i = 0; i < shared.length; i++) {
    const decoded = frontDecoded(dir, shared[i], rest[i]);
    if (!decoded) return i;
    dirs[i] = dir = decoded;
  }
  return dirs;
}

function firstNotFinite(column: readonly unknown[]): number {
  for (let i = 0; i < column.length; i++) {
    const value = column[i];
    if (typeof value !== "number" || !Number.isFinite(value)) return i;
  }
  return -1;
}

/** The first value that is not a decimal (or, where `emptyAllowed`, ""). */
function firstNotDecimal(column: readonly unknown[], emptyAllowed: boolean): number {
  for (let i = 0; i < column.length; i++) {
    const value = column[i];
    if (!(emptyAllowed && value === "") && !isDecimal(value)) return i;
  }
  return -1;
}

function firstNotHash(column: readonly unknown[]): number {
  for (let i = 0; i < column.length; i++) {
    const value = column[i];
    if (value !== "" && !isHash(value)) return i;
  }
  return -1;
}

/** Entry `i`'s stat identity (checked columns; the millisecond time derived from the nanosecond one). */
function identityAt(table: StoredSnapshotEntries, i: number): StoredCandidate["identity"] {
  const mtimeNs = table.mtimeNs[i]!;
  const ctimeStored = table.ctimeNs[i]!;
  return {
    mtimeMs: mtimeNs.length > 6 ? Number(mtimeNs.slice(0, -6)) : 0,
    size: table.size[i]!,
    ino: table.ino[i]!,
    mtimeNs,
    ctimeNs: ctimeStored === "" ? mtimeNs : ctimeStored,
  };
}

/**
 * Entry `i`'s metadata completed with what the entry says (folder, file, hash, its diagnostics), undefined for a
 * refused skill, or what is wrong with it.
 */
function decodeMetadata(
  table: StoredSnapshotEntries,
  i: number,
  entry: { dir: string; file: string; hash: string; refused: readonly unknown[] },
): StoredCandidate["metadata"] | string {
  const stored = table.metadata[i];
  if (stored === 0) return entry.refused.length === 0 ? "neither metadata nor refusal" : undefined;
  const metadataProblem = checkMetadata(stored);
  if (metadataProblem) return metadataProblem;
  if (entry.hash === "") return "bad metadata hash";
  const diagnostics = readDiagnostics(table.diagnostics[i], entry.file);
  if (!diagnostics) return "bad metadata diagnostics";
  // Completed in place (no copy): the parsed object is this load's own.
  const complete = stored as Record<string, unknown>;
  complete.dir = entry.dir;
  complete.file = entry.file;
  complete.hash = entry.hash;
  complete.diagnostics = diagnostics;
  return complete as unknown as NonNullable<StoredCandidate["metadata"]>;
}

const COLUMNS = [
  "source",
  "dirShared",
  "dirRest",
  "fileName",
  "root",
  "size",
  "ino",
  "mtimeNs",
  "ctimeNs",
  "hash",
  "verify",
  "metadata",
  "diagnostics",
  "refused",
] as const;

function indexOf(index: Map<string, number>, table: string[], value: string): number {
  let position = index.get(value);
  if (position === undefined) {
    position = table.push(value) - 1;
    index.set(value, position);
  }
  return position;
}

function checkMetadata(metadata: unknown): string | undefined {
  if (!isRecord(metadata)) return "bad 'metadata'";
  if (typeof metadata.name !== "string" || metadata.name.trim() === "" || typeof metadata.description !== "string")
    return "bad metadata name/description";
  for (const key of ["dir", "file", "hash", "diagnostics", "origin"])
    if (Object.hasOwn(metadata, key)) return `metadata '${key}' is not stored`;
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

const HASH = /^[0-9a-f]{64}$/;

function isHash(value: unknown): value is string {
  return typeof value === "string" && value.length === 64 && HASH.test(value);
}

function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
