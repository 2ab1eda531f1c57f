import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import { detectMimeType, isProbablyText } from "./detect-mime-type.js";
import { globToRegExp } from "./glob-pattern.js";

/** Limits of {@link collectOutputFiles}. */
export interface CollectOutputOptions {
  /** Globs relative to `out/`. @default ["**"] */
  patterns?: readonly string[];
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
}

/** One file a command left in `out/`. */
export interface CollectedFile {
  /** Path relative to the workspace, e.g. `out/report.md`. */
  path: string;
  /** Absolute host path (not shown to the model). */
  hostPath: string;
  size: number;
  mimeType: string;
  /** Text content (when text, within limits). */
  content?: string;
  /** True when `content` holds only the file's beginning. */
  contentTruncated?: boolean;
}

/** What was collected, and what was left out and why. */
export interface CollectedOutput {
  files: CollectedFile[];
  skipped: Array<{ path: string; reason: "symlink" | "not-a-file" | "too-many-files" | "too-large" }>;
}

/**
 * Walks `<workspace>/out` (never following symlinks) and reports files matching the globs, with size, MIME type (magic
 * bytes, then extension) and inline text for small text files.
 * @param workspaceDir the thread's workspace
 * @param options globs and caps
 */
export async function collectOutputFiles(workspaceDir: string, options: CollectOutputOptions = {}): Promise<CollectedOutput> {
  const outDir = path.join(workspaceDir, "out");
  const patterns = (options.patterns ?? ["**"]).map(globToRegExp);
  const maxFiles = options.maxFiles ?? 20;
  const maxFileBytes = options.maxFileBytes ?? 1_048_576;
  const inlineTextBytes = options.inlineTextBytes ?? 16_384;
  let inlineBudget = options.maxInlineTotalBytes ?? 65_536;
  const result: CollectedOutput = { files: [], skipped: [] };
  const relatives = await walk(outDir, "", result, 10_000);
  for (const relative of relatives.sort()) {
    if (!patterns.some((pattern) => pattern.test(relative))) continue;
    const hostPath = path.join(outDir, relative);
    const stat = await lstat(hostPath);
    if (options.modifiedSince !== undefined && stat.mtimeMs < options.modifiedSince) continue;
    const shown = `out/${relative}`;
    if (result.files.length >= maxFiles) {
      result.skipped.push({ path: shown, reason: "too-many-files" });
      continue;
    }
    const handle = await open(hostPath, "r");
    try {
      const readBytes = Math.min(stat.size, Math.max(512, Math.min(inlineTextBytes, inlineBudget)));
      const buffer = Buffer.alloc(readBytes);
      const { bytesRead } = await handle.read(buffer, 0, readBytes, 0);
      const head = buffer.subarray(0, bytesRead);
      const file: CollectedFile = { path: shown, hostPath, size: stat.size, mimeType: detectMimeType(relative, head.subarray(0, 512)) };
      if (stat.size > maxFileBytes) result.skipped.push({ path: shown, reason: "too-large" });
      else if (isProbablyText(head) && inlineBudget > 0) {
        const take = Math.min(bytesRead, inlineTextBytes, inlineBudget);
        file.content = head.subarray(0, take).toString("utf8");
        file.contentTruncated = take < stat.size;
        inlineBudget -= take;
      }
      result.files.push(file);
    } finally {
      await handle.close();
    }
  }
  return result;
}

async function walk(root: string, relative: string, result: CollectedOutput, budget: number): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (files.length >= budget) break;
    const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
    if (entry.isSymbolicLink()) result.skipped.push({ path: `out/${child}`, reason: "symlink" });
    else if (entry.isDirectory()) files.push(...(await walk(root, child, result, budget - files.length)));
    else if (entry.isFile()) files.push(child);
    else result.skipped.push({ path: `out/${child}`, reason: "not-a-file" });
  }
  return files;
}
