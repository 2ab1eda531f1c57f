import { closeSync, readSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SkillDiagnostic } from "../skill/skill-types.js";
import { SEARCH_INDEX_SUFFIX } from "./snapshot-search-index.js";
import {
  checkSnapshotFile,
  encodeSnapshotPayload,
  SKILLGRAPH_CORE_VERSION,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotFile,
} from "./snapshot-format.js";
import type { SnapshotEntries } from "./snapshot-entries.js";
import { RACY_WINDOW_NS } from "../sources/racy-window.js";
import { signCacheBytes, verifiedCachePayload } from "./cache-key.js";
import { openTrustedCacheFile, writeCacheFileAtomic } from "./trusted-cache-file.js";

/** Largest snapshot file read (a 10 000-skill snapshot is about 5 MB). */
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/** Snapshot files kept in the shared cache folder; the least recently written beyond this are deleted. */
const MAX_CACHED_SNAPSHOTS = 64;

/** The usable result of reading a snapshot file. */
export interface ReadSnapshot {
  /** Checked, decoded per entry when asked for; racily clean ones are resolved against the snapshot's write time. */
  entries: SnapshotEntries;
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
  let payload: Buffer;
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
    // Signed by this user's skillgraph (see cache-key.ts): a file shipped in a repository passes the ownership checks,
    // and a truncated or corrupted one fails the MAC before its sizes are even looked at.
    const verified = verifiedCachePayload(buffer.subarray(0, total));
    if (verified === undefined)
      return warn(
        "registry-snapshot-untrusted",
        "not written by this user's skillgraph (no valid MAC under its cache key)",
      );
    payload = verified;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { snapshot: undefined, diagnostics: [] };
    return warn("registry-snapshot-invalid", `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // Racy: changed (mtime or ctime) less than RACY_WINDOW_NS before the snapshot was written.
  const checked = checkSnapshotFile(payload, expected, racyThreshold(writtenNs));
  if (!checked.ok)
    return checked.rejection.kind === "stale"
      ? warn("registry-snapshot-stale", checked.rejection.message)
      : warn("registry-snapshot-invalid", checked.rejection.message);
  const { entries, scanState } = checked.snapshot;
  return { snapshot: { entries, count: entries.count, scanState, writtenNs }, diagnostics: [] };
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
  const bytes = await writeCacheFileAtomic(path, signCacheBytes(encodeSnapshotPayload(file)));
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
