import { isBinaryContent, withConfinedFolder } from "../internal/core.js";
import { detectMimeType } from "./detect-mime-type.js";
import type { OutputMatcher } from "./output-globs.js";

/** Synchronous work between two turns of the event loop while matching `out/` entries, at most (milliseconds). */
const YIELD_AFTER_MS = 4;

/** Limits of {@link collectOutputFiles}. */
export interface CollectOutputOptions {
  /** Which paths (relative to `out/`) are reported. @default every file */
  match?: OutputMatcher;
  /** Only files modified at or after this time (ms since epoch). */
  modifiedSince?: number;
  /** At most this many files are reported. @default 20 */
  maxFiles?: number;
  /** Files larger than this are reported without content. @default 1048576 */
  maxFileBytes?: number;
  /** Text content returned inline per file, at most. @default 16384 */
  inlineTextBytes?: number;
  /** Inline text in all, at most. @default 65536 */
  maxInlineTotalBytes?: number;
  /** At most this many entries of `out/` are looked at (files, folders, links together). @default 10000 */
  maxEntries?: number;
  /** At most this many skipped entries are named in the result (the rest are counted). @default 20 */
  maxSkippedListed?: number;
}

/** One file a command left in `out/`. */
export interface CollectedFile {
  /** Path relative to the workspace, e.g. `out/report.md`. */
  path: string;
  size: number;
  mimeType: string;
  /** Text content (when text, within limits). */
  content?: string;
  /** True when `content` holds only the file's beginning. */
  contentTruncated?: boolean;
}

/** Why an entry of `out/` was left out. */
export type SkippedReason = "symlink" | "not-a-file" | "too-many-files" | "too-large" | "changed-while-reading";

/** What was collected, and what was left out and why (the list is capped; `skippedCount` counts them all). */
export interface CollectedOutput {
  files: CollectedFile[];
  skipped: Array<{ path: string; reason: SkippedReason }>;
  skippedCount: number;
  /** True when `out/` had more entries than were looked at. */
  truncated: boolean;
}

/**
 * Walks `<workspace>/out` race-free (from the folder's descriptor, never following symlinks, each file opened with
 * O_NOFOLLOW|O_NONBLOCK and checked on its descriptor) and reports files matching the globs, with size, MIME type
 * (magic bytes, then extension) and inline text for small text files. Every list in the result is capped.
 * @param workspaceDir the thread's workspace
 * @param options globs and caps
 */
export async function collectOutputFiles(
  workspaceDir: string,
  options: CollectOutputOptions = {},
): Promise<CollectedOutput> {
  const maxFiles = options.maxFiles ?? 20;
  const maxFileBytes = options.maxFileBytes ?? 1_048_576;
  const inlineTextBytes = options.inlineTextBytes ?? 16_384;
  const maxSkippedListed = options.maxSkippedListed ?? 20;
  let inlineBudget = options.maxInlineTotalBytes ?? 65_536;
  const result: CollectedOutput = { files: [], skipped: [], skippedCount: 0, truncated: false };
  const skip = (path: string, reason: SkippedReason) => {
    result.skippedCount += 1;
    if (result.skipped.length < maxSkippedListed) result.skipped.push({ path, reason });
  };
  const match = options.match ?? (() => true);
  await withConfinedFolder(workspaceDir, async (workspace) => {
    const listed = await workspace.list("out", { maxEntries: options.maxEntries ?? 10_000 });
    if (!listed.ok) return;
    result.truncated = listed.truncated;
    let since = performance.now();
    for (const entry of listed.entries) {
      // matching is linear but not free: give the event loop a turn every few milliseconds of it
      if (performance.now() - since > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      if (entry.kind === "folder" || !match(entry.path)) continue;
      const shown = `out/${entry.path}`;
      if (entry.kind !== "file") {
        skip(shown, entry.kind === "symlink" ? "symlink" : "not-a-file");
        continue;
      }
      if (options.modifiedSince !== undefined && (entry.mtimeMs ?? 0) < options.modifiedSince) continue;
      if (result.files.length >= maxFiles) {
        skip(shown, "too-many-files");
        continue;
      }
      const headBytes = Math.max(512, Math.min(inlineTextBytes, Math.max(inlineBudget, 0)));
      const read = await workspace.readFile(`out/${entry.path}`, { maxBytes: Number.MAX_SAFE_INTEGER, headBytes });
      if (!read.ok) {
        skip(
          shown,
          read.reason === "symlink" ? "symlink" : read.reason === "not-a-file" ? "not-a-file" : "changed-while-reading",
        );
        continue;
      }
      const head = read.bytes;
      const file: CollectedFile = {
        path: shown,
        size: read.size,
        mimeType: detectMimeType(entry.path, head.subarray(0, 512)),
      };
      if (read.size > maxFileBytes) skip(shown, "too-large");
      else if (
        inlineTextBytes > 0 &&
        inlineBudget > 0 &&
        !isBinaryContent(head, { complete: head.length >= read.size })
      ) {
        const take = Math.min(head.length, inlineTextBytes, inlineBudget);
        file.content = head.subarray(0, take).toString("utf8");
        file.contentTruncated = take < read.size;
        inlineBudget -= take;
      }
      result.files.push(file);
    }
  });
  return result;
}
