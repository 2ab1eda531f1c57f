import { constants, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/** What `readRegularFileCapped` read, or why it stopped. */
export type CappedRead =
  | { ok: true; bytes: Buffer; stats: Stats }
  | { ok: false; reason: "not-regular"; stats: Stats }
  | { ok: false; reason: "too-large"; stats: Stats; bytesSeen: number }
  | { ok: false; reason: "changed"; stats: Stats };

const CHUNK = 64 * 1024;

/**
 * Opens `path` without blocking (O_NONBLOCK: a FIFO opens at once instead of waiting for a writer), refuses anything
 * but a regular file from its fstat, and reads at most `maxBytes` bytes: a file that grew past the cap while being
 * read is refused too. `expected` (dev + ino from an earlier stat) detects a swap between stat and open.
 * Throws the open/read error (ENOENT, EACCES, ELOOP...) for the caller to report.
 */
export async function readRegularFileCapped(
  path: string,
  maxBytes: number,
  expected?: { dev: number; ino: number },
): Promise<CappedRead> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, reason: "not-regular", stats };
    if (expected !== undefined && (stats.dev !== expected.dev || stats.ino !== expected.ino))
      return { ok: false, reason: "changed", stats };
    return await readOpenedFileCapped(handle, stats, maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * Reads an already opened regular file (its fstat in `stats`) up to `maxBytes`: a file larger than that, or one that
 * grew past it while being read, is refused. The caller opened it, checked it and closes it.
 */
export async function readOpenedFileCapped(handle: FileHandle, stats: Stats, maxBytes: number): Promise<CappedRead> {
  if (stats.size > maxBytes) return { ok: false, reason: "too-large", stats, bytesSeen: stats.size };
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(CHUNK, maxBytes + 1 - total);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return { ok: false, reason: "too-large", stats, bytesSeen: total };
  }
  return { ok: true, bytes: Buffer.concat(chunks, total), stats };
}
