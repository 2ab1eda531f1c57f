import type { SkillDiagnostic } from "../skill/skill-types.js";
import type { SnapshotEntry } from "./snapshot-entry.js";

// How a snapshot file stores its entries (format 2): one array per field instead of one object per entry, paths
// front-coded (each folder path stored as the length it shares with the previous one plus the rest), and everything
// the entry already says left out of its metadata (folder, file, hash) and diagnostics (the file path in `path` and at
// the head of `message`). For 10 000 skills this is about a third of the bytes of one JSON object per entry and a
// small fraction of the objects to parse, which is most of what a cold start with a snapshot spends.

/** A diagnostic as stored: [code, severity, path (0: the entry's file), message after the path (1) or whole (0),
 * message, field (0: none), line (0: none), column (0: none)]; trailing "none" fields are left out. */
type StoredDiagnostic = [string, string, string | 0, 0 | 1, string, (string | 0)?, number?, number?];

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
  entries: readonly SnapshotEntry[],
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
    if (source === undefined || entry.file !== `${entry.dir}/${fileName}` || !isPlainFileName(fileName)) continue;
    if (entry.metadata && (entry.metadata.hash !== entry.hash || entry.metadata.dir !== entry.dir)) continue;
    if (entry.metadata && entry.metadata.file !== entry.file) continue;
    let shared = 0;
    const limit = Math.min(previousDir.length, entry.dir.length);
    while (shared < limit && previousDir.charCodeAt(shared) === entry.dir.charCodeAt(shared)) shared++;
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
    stored.verify.push(entry.verify ? 1 : 0);
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
 * tool). Returns the entries, or what is wrong with the first bad one; never throws.
 */
export function decodeSnapshotEntries(
  value: unknown,
  sources: readonly string[],
): { ok: true; entries: SnapshotEntry[] } | { ok: false; problem: string } {
  const bad = (problem: string) => ({ ok: false as const, problem });
  if (!isRecord(value)) return bad("bad 'entries'");
  const count = value.count;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) return bad("bad 'entries.count'");
  for (const key of COLUMNS)
    if (!Array.isArray(value[key]) || (value[key] as unknown[]).length !== count) return bad(`bad 'entries.${key}'`);
  const fileNames = value.fileNames;
  const roots = value.roots;
  if (!Array.isArray(fileNames) || !fileNames.every(isPlainFileName)) return bad("bad 'entries.fileNames'");
  if (!Array.isArray(roots) || !roots.every((root) => typeof root === "string" && root !== ""))
    return bad("bad 'entries.roots'");
  const columns = value as unknown as StoredSnapshotEntries;
  const entries: SnapshotEntry[] = new Array(count);
  let previousDir = "";
  for (let i = 0; i < count; i++) {
    const problem = (what: string) => bad(`entry ${i}: ${what}`);
    const source = columns.source[i];
    if (!isIndex(source, sources.length)) return problem("unknown source");
    const shared = columns.dirShared[i];
    const rest = columns.dirRest[i];
    if (!isIndex(shared, previousDir.length + 1) || typeof rest !== "string") return problem("bad 'dir'");
    const dir = shared === 0 ? rest : previousDir.slice(0, shared) + rest;
    if (dir === "") return problem("bad 'dir'");
    previousDir = dir;
    const fileName = columns.fileName[i];
    if (!isIndex(fileName, fileNames.length)) return problem("bad 'file'");
    const file = `${dir}/${fileNames[fileName] as string}`;
    const root = columns.root[i];
    if (!isIndex(root, roots.length + 1)) return problem("bad 'root'");
    const size = columns.size[i];
    const ino = columns.ino[i];
    if (typeof size !== "number" || !Number.isFinite(size)) return problem("bad 'identity.size'");
    if (typeof ino !== "number" || !Number.isFinite(ino)) return problem("bad 'identity.ino'");
    const mtimeNs = columns.mtimeNs[i];
    const ctimeStored = columns.ctimeNs[i];
    if (!isDecimal(mtimeNs)) return problem("bad 'identity.mtimeNs'");
    if (ctimeStored !== "" && !isDecimal(ctimeStored)) return problem("bad 'identity.ctimeNs'");
    const hash = columns.hash[i];
    if (hash !== "" && !isHash(hash)) return problem("bad 'hash'");
    const verify = columns.verify[i];
    if (verify !== 0 && verify !== 1) return problem("bad 'verify'");
    const refused = readDiagnostics(columns.refused[i], file);
    if (!refused) return problem("bad 'refused'");
    const stored = columns.metadata[i];
    let metadata: SnapshotEntry["metadata"];
    if (stored === 0) {
      if (refused.length === 0) return problem("neither metadata nor refusal");
    } else {
      const metadataProblem = checkMetadata(stored);
      if (metadataProblem) return problem(metadataProblem);
      if (hash === "") return problem("bad metadata hash");
      const diagnostics = readDiagnostics(columns.diagnostics[i], file);
      if (!diagnostics) return problem("bad metadata diagnostics");
      // Completed in place (no copy): the parsed object is this load's own.
      const complete = stored as Record<string, unknown>;
      complete.dir = dir;
      complete.file = file;
      complete.hash = hash;
      complete.diagnostics = diagnostics;
      metadata = complete as unknown as NonNullable<SnapshotEntry["metadata"]>;
    }
    entries[i] = {
      sourceId: sources[source] as string,
      dir,
      file,
      root: root === 0 ? dir : (roots[root - 1] as string),
      identity: {
        mtimeMs: mtimeNs.length > 6 ? Number(mtimeNs.slice(0, -6)) : 0,
        size,
        ino,
        mtimeNs,
        ctimeNs: ctimeStored === "" ? mtimeNs : ctimeStored,
      },
      hash: hash === "" ? undefined : hash,
      metadata,
      refused,
      verify: verify === 1,
    };
  }
  return { ok: true, entries };
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

function storeDiagnostic(diagnostic: SkillDiagnostic, file: string): StoredDiagnostic {
  const { code, severity, message, path, field, line, column } = diagnostic;
  const prefixed = message.startsWith(path) ? 1 : 0;
  const stored: StoredDiagnostic = [
    code,
    severity,
    path === file ? 0 : path,
    prefixed,
    prefixed ? message.slice(path.length) : message,
  ];
  if (column !== undefined) stored.push(field ?? 0, line ?? 0, column);
  else if (line !== undefined) stored.push(field ?? 0, line);
  else if (field !== undefined) stored.push(field);
  return stored;
}

function readDiagnostics(value: unknown, file: string): SkillDiagnostic[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const diagnostics: SkillDiagnostic[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!Array.isArray(item) || item.length < 5 || item.length > 8) return undefined;
    const [code, severity, storedPath, prefixed, message, field, line, column] = item as unknown[];
    if (typeof code !== "string" || (severity !== "error" && severity !== "warning")) return undefined;
    if (storedPath !== 0 && typeof storedPath !== "string") return undefined;
    if ((prefixed !== 0 && prefixed !== 1) || typeof message !== "string") return undefined;
    if (field !== undefined && field !== 0 && typeof field !== "string") return undefined;
    if (line !== undefined && !isPositionOrZero(line)) return undefined;
    if (column !== undefined && !isPositionOrZero(column)) return undefined;
    const path = storedPath === 0 ? file : storedPath;
    const diagnostic: SkillDiagnostic = { code, severity, message: prefixed === 1 ? path + message : message, path };
    if (typeof field === "string") diagnostic.field = field;
    if (typeof line === "number" && line > 0) diagnostic.line = line;
    if (typeof column === "number" && column > 0) diagnostic.column = column;
    diagnostics[i] = diagnostic;
  }
  return diagnostics;
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

/** A file name inside the skill folder: not empty, no separator, not `.` or `..`. */
function isPlainFileName(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value !== "" &&
    value !== "." &&
    value !== ".." &&
    !value.includes("/") &&
    !value.includes("\0")
  );
}

function isIndex(value: unknown, length: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

/** A 1-based line or column, or 0 for none. */
function isPositionOrZero(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** A non-negative integer in decimal without leading zeros, at most 30 digits (nanosecond times). */
export function isDecimal(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 30) return false;
  if (value.length > 1 && value.charCodeAt(0) === 48) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
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
