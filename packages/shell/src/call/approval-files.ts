// The files a command line runs, bound into its "always" approval key: each skill or workspace script the line runs
// directly, and each existing file named by an argument (`python3 scripts/x.py`, `bash w.sh`), by resolved path and
// content hash. An "always" answer then never carries over to a changed script.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync, constants } from "node:fs";
import path from "node:path";
import { threadCpuMicros } from "../command/thread-cpu-time.js";
import type { CommandPlan } from "../policy/command-check-types.js";

/** Files bigger than this are identified by device, inode, size and change times (a write changes ctime), not hashed. */
const HASHED_BYTES = 1024 * 1024;
/** Most files one key names; a line naming more files is keyed by the first ones and the count. */
const MAX_FILES = 64;

/** Where the files of a line are: the skill folder (run_skill_script) and the working directory (host paths). */
export interface ApprovalFileRoots {
  skillDir?: string;
  cwd: string;
  workspaceDir: string;
}

function contentIdentity(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return undefined;
    if (stat.size > BigInt(HASHED_BYTES)) return `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeNs}:${stat.mtimeNs}`;
    const hash = createHash("sha256");
    const buffer = Buffer.alloc(64 * 1024);
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
    return `sha256:${hash.digest("hex")}`;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Host paths an argument may name: itself (absolute), under the working directory, or a skill's `scripts/...`. */
function candidatePaths(typed: string, roots: ApprovalFileRoots): string[] {
  // an option's value names a file too: `--require=./x.js`
  const word = /^-[^=]*=/.test(typed) ? typed.slice(typed.indexOf("=") + 1) : typed;
  if (word === "" || word.includes("\u0000")) return [];
  const expanded = word
    .replace(/^\$\{?SKILL_DIR\}?(?=\/|$)/, roots.skillDir ?? "\u0000")
    .replace(/^\$\{?(WORKSPACE|WORKSPACE_DIR|WORK_DIR)\}?(?=\/|$)/, roots.workspaceDir);
  if (expanded.includes("\u0000")) return [];
  if (path.isAbsolute(expanded)) return [expanded];
  const paths = [path.resolve(roots.cwd, expanded)];
  if (roots.skillDir) paths.push(path.resolve(roots.skillDir, expanded));
  return paths;
}

function realFile(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Most milliseconds of this thread's CPU the collection runs before it gives the event loop a turn. */
const SLICE_MS = 5;

/** True when `file` (a real path) is a regular file: counted past {@link MAX_FILES} without being hashed. */
function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * `[path, identity]` of every file the line runs, names as an argument or reads through a redirection (resolved,
 * content-hashed), in order, each once: what an "always" approval key must include. Past {@link MAX_FILES} files
 * are only counted, and the work gives the event loop a turn every few milliseconds (a 64 KB line can name
 * thousands of 1 MiB files).
 */
export async function approvalFiles(
  plan: Pick<CommandPlan, "commands" | "redirectedFrom">,
  roots: ApprovalFileRoots,
): Promise<Array<[string, string]>> {
  const words = plan.commands.flatMap((command) => {
    if (command.kind === "builtin" || command.kind === "function") return [];
    return command.kind === "script" ? [command.program, ...command.argv.slice(1)] : command.argv.slice(1);
  });
  const files = new Map<string, string>();
  const counted = new Set<string>();
  let slice = threadCpuMicros();
  for (const word of [...words, ...(plan.redirectedFrom ?? [])]) {
    for (const candidate of candidatePaths(word, roots)) {
      if (threadCpuMicros() - slice > SLICE_MS * 1000) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = threadCpuMicros();
      }
      const real = realFile(candidate);
      if (real === undefined || files.has(real) || counted.has(real)) continue;
      if (files.size >= MAX_FILES) {
        if (isRegularFile(real)) counted.add(real);
        continue;
      }
      const identity = contentIdentity(real);
      if (identity !== undefined) files.set(real, identity);
    }
  }
  const entries = [...files.entries()];
  if (counted.size > 0) entries.push(["(more files)", String(files.size + counted.size)]);
  return entries;
}
