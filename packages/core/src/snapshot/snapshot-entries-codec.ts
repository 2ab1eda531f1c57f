import { isPlainName } from "../internal/snapshot-value-checks.js";
import type { StoredCandidate } from "./stored-candidate.js";
import { storeDiagnostic, type StoredDiagnostic } from "./stored-diagnostics.js";

// The entries of a snapshot file as columns (one array per field), the step before the binary layout
// (snapshot-binary.ts) packs them: numbers go to typed arrays, paths, times, names and descriptions to one string table,
// the rest of each skill's metadata and its diagnostics to one JSON section. Everything the entry already says is left
// out of its metadata (folder, file, hash) and diagnostics (the file path in `path` and at the head of `message`).

/** The entries of a snapshot file as stored, one array per field. All arrays have `count` items. */
export interface StoredSnapshotEntries {
  count: number;
  /** Index into the file's `sources`. */
  source: number[];
  /** The skill folder. */
  dir: string[];
  /** Index into `fileNames`: the SKILL.md is `dir + "/" + fileNames[fileName[i]]`. */
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

/** Columns with no entry. */
function emptyColumns(): StoredSnapshotEntries {
  return {
    count: 0,
    source: [],
    dir: [],
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
}

/** Whether an entry has the shape the format derives (paths, hash), so it can be stored without saying it twice. */
function storable(entry: StoredCandidate, fileName: string, sourceKnown: boolean): boolean {
  if (!sourceKnown || entry.file !== `${entry.dir}/${fileName}` || !isPlainName(fileName)) return false;
  if (entry.hash !== undefined && !/^[0-9a-f]{64}$/.test(entry.hash)) return false;
  const { metadata } = entry;
  return !metadata || (metadata.hash === entry.hash && metadata.dir === entry.dir && metadata.file === entry.file);
}

/**
 * Stores entries (sorted by folder by the caller, so that a cold start finds them in the order its walk does). An
 * entry whose paths or hash do not have the shape the format derives (never the case for a folder source) is left out:
 * the registry then reads that file again on the next start instead of trusting it.
 */
export function encodeSnapshotEntries(
  entries: readonly StoredCandidate[],
  sources: readonly string[],
): StoredSnapshotEntries {
  const stored = emptyColumns();
  const sourceIndex = new Map(sources.map((id, index) => [id, index]));
  const fileNameIndex = new Map<string, number>();
  const rootIndex = new Map<string, number>();
  for (const entry of entries) {
    const source = sourceIndex.get(entry.sourceId);
    const fileName = entry.file.slice(entry.dir.length + 1);
    if (!storable(entry, fileName, source !== undefined)) continue;
    stored.source.push(source!);
    stored.dir.push(entry.dir);
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

function indexOf(index: Map<string, number>, table: string[], value: string): number {
  let position = index.get(value);
  if (position === undefined) {
    position = table.push(value) - 1;
    index.set(value, position);
  }
  return position;
}
