// The bwrap arguments that show every repository a command can reach with a sanitised read-only configuration and no
// hooks: each git folder's `config` / `config.worktree` is read (no-follow, bounded), sanitised, written to a private
// host folder and bound read-only over the original; each `hooks` folder is covered by an empty read-only folder.
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  findGitDirs,
  findGitDirsAsync,
  type FoundGitDir,
  type GitDirScanBounds,
  SCAN_SLICE_MS,
} from "./find-git-dirs.js";
import { MAX_GIT_CONFIG_BYTES, sanitizeGitConfigSteps } from "./git-config-sanitize.js";
import { runAllSteps, runInSlices, type SteppedWork } from "./stepped-work.js";

/** An empty read-only folder inside the sandbox: every sanitised configuration's `core.hooksPath`. */
export const SANDBOX_NO_HOOKS = "/.skillgraph-no-hooks";

/** A folder the command can reach: where it is on the host and where the sandbox shows it. */
export interface RepositoryRoot {
  host: string;
  sandbox: string;
}

/** What the executor adds to a command: bwrap arguments, and the removal of the host copies once it ended. */
export interface RepositoryBinds {
  args: string[];
  /** Removes the host copies (call once the sandbox has exited). */
  cleanup(): void;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A regular file's text, read through one no-follow descriptor; undefined when not a regular file, too large, not UTF-8. */
export function readConfigFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_GIT_CONFIG_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_GIT_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_GIT_CONFIG_BYTES) return undefined;
    }
    return decoder.decode(buffer.subarray(0, length));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Every place the sandbox shows a host path (a folder may be shown twice, e.g. the skill at /skill and its host path). */
function sandboxPaths(hostPath: string, roots: readonly RepositoryRoot[]): string[] {
  const paths: string[] = [];
  for (const root of roots) {
    if (hostPath === root.host) paths.push(root.sandbox);
    else if (hostPath.startsWith(`${root.host}/`)) paths.push(root.sandbox + hostPath.slice(root.host.length));
  }
  if (paths.length === 0) throw new Error(`internal: ${hostPath} is under no repository root`);
  return [...new Set(paths)];
}

/** The host folder of the copies, and the arguments so far (the empty hooks folder bound first). */
interface BindsInProgress {
  hostDir: string;
  empty: string;
  args: string[];
  count: number;
}

function beginBinds(): BindsInProgress {
  const hostDir = mkdtempSync(path.join(os.tmpdir(), "skillgraph-git-"));
  const empty = path.join(hostDir, "empty");
  try {
    mkdirSync(empty, { mode: 0o555 });
  } catch (error) {
    rmSync(hostDir, { recursive: true, force: true });
    throw error;
  }
  return { hostDir, empty, args: ["--ro-bind", empty, SANDBOX_NO_HOOKS], count: 0 };
}

/** Writes one git folder's sanitised copies and adds their binds, in steps. */
function* bindGitDirSteps(
  binds: BindsInProgress,
  gitDir: FoundGitDir,
  roots: readonly RepositoryRoot[],
): SteppedWork<void> {
  const copies: { name: string; copy: string }[] = [];
  for (const name of gitDir.configFiles) {
    const copy = path.join(binds.hostDir, `config-${binds.count++}`);
    const text = yield* sanitizeGitConfigSteps(readConfigFile(path.join(gitDir.dir, name)), SANDBOX_NO_HOOKS);
    writeFileSync(copy, text, { mode: 0o444 });
    copies.push({ name, copy });
  }
  for (const inside of sandboxPaths(gitDir.dir, roots)) {
    for (const { name, copy } of copies) binds.args.push("--ro-bind", copy, path.posix.join(inside, name));
    if (gitDir.hooks) binds.args.push("--ro-bind", binds.empty, path.posix.join(inside, "hooks"));
  }
}

/**
 * Finds the repositories under `roots` and returns the binds that show them sanitised (see the file comment), in one
 * synchronous call.
 * @throws RepositoryScanError when the scan passes its bounds (the command must not run)
 */
export function sanitizedRepositoryBinds(roots: readonly RepositoryRoot[], bounds: GitDirScanBounds): RepositoryBinds {
  const found = findGitDirs([...new Set(roots.map((root) => root.host))], bounds);
  if (found.length === 0) return { args: [], cleanup: () => undefined };
  const binds = beginBinds();
  const cleanup = () => rmSync(binds.hostDir, { recursive: true, force: true });
  try {
    for (const gitDir of found) runAllSteps(bindGitDirSteps(binds, gitDir, roots));
    return { args: binds.args, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/**
 * {@link sanitizedRepositoryBinds} without holding the event loop: the scan and each sanitised copy run in slices of
 * CPU time, and the loop gets a turn between them.
 * @throws RepositoryScanError when the scan passes its bounds (the command must not run)
 */
export async function sanitizedRepositoryBindsAsync(
  roots: readonly RepositoryRoot[],
  bounds: GitDirScanBounds,
): Promise<RepositoryBinds> {
  const found = await findGitDirsAsync([...new Set(roots.map((root) => root.host))], bounds);
  if (found.length === 0) return { args: [], cleanup: () => undefined };
  const binds = beginBinds();
  const cleanup = () => rmSync(binds.hostDir, { recursive: true, force: true });
  try {
    for (const gitDir of found) {
      await runInSlices(bindGitDirSteps(binds, gitDir, roots), SCAN_SLICE_MS);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { args: binds.args, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
