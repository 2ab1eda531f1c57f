import { isAscii } from "node:buffer";
import { closeSync, readSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SkillDiagnostic } from "../skill/skill-types.js";
import { SEARCH_INDEX_SUFFIX } from "./snapshot-search-index.js";
import {
  checkSnapshotFile,
  SKILLGRAPH_CORE_VERSION,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotFile,
} from "./snapshot-format.js";
import type { StoredCandidate } from "./stored-candidate.js";
import { RACY_WINDOW_NS } from "../sources/racy-window.js";
import { encodeSnapshotEntries } from "./snapshot-entries-codec.js";
import { signCacheText, verifiedCachePayload } from "./cache-key.js";
import { openTrustedCacheFile, writeCacheFileAtomic } from "./trusted-cache-file.js";

/** Largest snapshot file read (a 10 000-skill snapshot is about 7 MB). */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/** Snapshot files kept in the shared cache folder; the least recently written beyond this are deleted. */
const MAX_CACHED_SNAPSHOTS = 64;

/** The usable result of reading a snapshot file. */
export interface ReadSnapshot {
  /** By source id, then by SKILL.md path; `racy` is resolved against the snapshot's write time. */
  entries: Map<string, Map<string, StoredCandidate>>;
  /** How many entries there are. */
  count: number;
  /** Per source id, the scan state to seed the source with. */
  scanState: Record<string, unknown>;
  /** When the snapshot was written (its file's mtime/ctime), in ns: the reference of the racy rule. */
  writtenNs: bigint;
}

/**
 * Reads and checks a snapshot file. Missing → `undefined` and no diagnostic; unreadable, corrupt or stale → `undefined`
 * plus a warning saying why (the registry then loads from the files, and rewrites the snapshot). Never throws.
 */
export async function readSnapshotFile(
  path: string,
  expected: { settings: { strict: boolean; maxBytes: number }; sources: string[] },
): Promise<{ snapshot: ReadSnapshot | undefined; diagnostics: SkillDiagnostic[] }> {
  const warn = (code: string, message: string) => ({
    snapshot: undefined,
    diagnostics: [
      {
        code,
        severity: "warning" as const,
        message: `registry snapshot ${path}: ${message}; loading from the skill files`,
        path,
      },
    ],
  });
  let text: string;
  let writtenNs: bigint;
  let fd: number | undefined;
  try {
    // Synchronous: read once, on a cold start, where a thread-pool round trip per chunk only adds latency.
    // Trusted only when this user (or root) wrote it: a planted snapshot could grant a skill tools its SKILL.md does not.
    const opened = openTrustedCacheFile(path);
    if (!opened.ok) {
      if (opened.kind === "missing") return { snapshot: undefined, diagnostics: [] };
      return warn(
        opened.kind === "untrusted" ? "registry-snapshot-untrusted" : "registry-snapshot-invalid",
        opened.reason,
      );
    }
    fd = opened.fd;
    const stats = opened.stats;
    if (stats.size > BigInt(MAX_SNAPSHOT_BYTES))
      return warn("registry-snapshot-invalid", `over ${MAX_SNAPSHOT_BYTES} bytes`);
    writtenNs = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
    const buffer = Buffer.allocUnsafe(Number(stats.size) + 1);
    let total = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total === buffer.length) return warn("registry-snapshot-invalid", "grew while being read");
    }
    // Signed by this user's skillgraph (see cache-key.ts): a file shipped in a repository passes the ownership checks.
    const bytes = verifiedCachePayload(buffer.subarray(0, total));
    if (bytes === undefined)
      return warn(
        "registry-snapshot-untrusted",
        "not written by this user's skillgraph (no valid MAC under its cache key)",
      );
    text = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { snapshot: undefined, diagnostics: [] };
    return warn("registry-snapshot-invalid", `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return warn("registry-snapshot-invalid", "not valid JSON");
  }
  const checked = checkSnapshotFile(parsed, expected);
  if (!checked.ok)
    return checked.rejection.kind === "stale"
      ? warn("registry-snapshot-stale", checked.rejection.message)
      : warn("registry-snapshot-invalid", checked.rejection.message);
  const entries = new Map<string, Map<string, StoredCandidate>>();
  // Racy: changed (mtime or ctime) less than RACY_WINDOW_NS before the snapshot was written. Compared as decimal
  // strings (no leading zeros, so longer is larger) rather than parsing two BigInts per entry.
  const racyAfter = racyThreshold(writtenNs);
  let ofSource: Map<string, StoredCandidate> | undefined;
  for (const entry of checked.snapshot.entries) {
    entry.racy ||= changedAfter(entry.identity, racyAfter);
    // Entries come sorted by file, rarely alternating sources: the last source's map is usually the one.
    if (ofSource === undefined || entries.get(entry.sourceId) !== ofSource) {
      ofSource = entries.get(entry.sourceId);
      if (!ofSource) entries.set(entry.sourceId, (ofSource = new Map()));
    }
    ofSource.set(entry.file, entry);
  }
  const { scanState = {}, entries: all } = checked.snapshot;
  return { snapshot: { entries, count: all.length, scanState, writtenNs }, diagnostics: [] };
}

/** The racy rule's threshold for a reference time: a file changed after it (decimal ns) is racily clean. */
export function racyThreshold(referenceNs: bigint): string {
  return (referenceNs - RACY_WINDOW_NS).toString();
}

/**
 * True when the file's mtime or ctime (decimal nanoseconds, no leading zeros) is after `threshold` from
 * `racyThreshold`: the same as `reference - max(mtime, ctime) < RACY_WINDOW_NS`, without two BigInts per entry.
 */
export function changedAfter(identity: { mtimeNs: string; ctimeNs: string }, threshold: string): boolean {
  return decimalAfter(identity.mtimeNs, threshold) || decimalAfter(identity.ctimeNs, threshold);
}

/** `a > b` for non-negative decimal integers without leading zeros (`b` may be negative: then always true). */
function decimalAfter(a: string, b: string): boolean {
  if (b.startsWith("-")) return true;
  return a.length !== b.length ? a.length > b.length : a > b;
}

/** The later of two nanosecond timestamps written as decimal strings. */
export function maxNs(a: string, b: string): bigint {
  const x = BigInt(a);
  const y = BigInt(b);
  return x > y ? x : y;
}

/**
 * Writes a snapshot atomically (`writeCacheFileAtomic`: only into a folder that is this user's alone), then, in the
 * shared cache folder, deletes the oldest snapshots beyond 64. Throws on I/O errors and on an untrusted folder.
 */
export async function writeSnapshotFile(
  path: string,
  content: Omit<SnapshotFile, "format" | "formatVersion" | "coreVersion">,
  options: { prune: boolean },
): Promise<number> {
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    formatVersion: SNAPSHOT_VERSION,
    coreVersion: SKILLGRAPH_CORE_VERSION,
    ...content,
  };
  // Pure ASCII (every other character escaped): the reader decodes it as Latin-1, a copy, into a one-byte string,
  // which also parses faster than the two-byte string a single non-ASCII description would otherwise give.
  const text = JSON.stringify({ ...file, entries: encodeSnapshotEntries(file.entries, file.sources) }).replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const bytes = await writeCacheFileAtomic(path, signCacheText(text));
  if (options.prune) await pruneSnapshots(dirname(path)).catch(() => {});
  return bytes;
}

async function pruneSnapshots(folder: string): Promise<void> {
  const names = (await readdir(folder)).filter((name) => name.startsWith("registry-") && name.endsWith(".json"));
  if (names.length <= MAX_CACHED_SNAPSHOTS) return;
  const dated = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(join(folder, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => a.mtime - b.mtime);
  for (const { name } of dated.slice(0, dated.length - MAX_CACHED_SNAPSHOTS)) {
    await unlink(join(folder, name)).catch(() => {});
    await unlink(join(folder, name + SEARCH_INDEX_SUFFIX)).catch(() => {});
  }
}
