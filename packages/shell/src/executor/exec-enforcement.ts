// Exec enforcement under bubblewrap: denied programs replaced by a refusing stub at every path they have inside the
// sandbox, and the native exec-guard (Landlock + noexec mounts + seccomp) as the sandbox's first program, so a deny
// rule holds whoever starts the program. Design and measurements: docs/design/exec-enforcement.md.
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import { isExecutableFile } from "../policy/program-resolution.js";
import { filesNamed, hardLinksOf, type VisibleFolder } from "./program-index.js";

/** Where `native/build.sh` puts the helpers (the same from src/executor/ and dist/executor/). */
export const NATIVE_BUILD_DIR = fileURLToPath(new URL("../../native/build/", import.meta.url));

/** Where exec-guard is bound inside the sandbox (on the sandbox's root, which becomes noexec once it runs). */
export const SANDBOX_EXEC_GUARD = "/.skillgraph-exec-guard";

/** The two helpers, as host paths. */
export interface ExecEnforcementHelpers {
  /** Sets up Landlock, noexec mounts and seccomp, then execs the command. */
  guard: string;
  /** Bound over every path of a denied program: says so and exits 126. */
  stub: string;
  /** Bound over every path of a program with argument-level rules: asks the broker to run its argv. */
  gate: string;
  /** Runs on the host beside a command with gates: decides each start with the runtime, runs what is allowed. */
  broker: string;
  /**
   * Bound over the dynamic loader under an allow list: loads the real one for a program, refuses to run as one.
   * Built on x86-64 only; undefined elsewhere (a call with an allow list is then refused).
   */
  shim?: string;
}

/**
 * The built helpers, or a BubblewrapUnavailableError saying how to build them: exec enforcement never runs without
 * them (fail closed).
 * @param bwrapPath for the error
 * @param buildDir where the helpers are @default NATIVE_BUILD_DIR
 */
export function findExecEnforcementHelpers(bwrapPath: string, buildDir = NATIVE_BUILD_DIR): ExecEnforcementHelpers {
  const guard = path.join(buildDir, "exec-guard");
  const stub = path.join(buildDir, "denied-stub");
  const gate = path.join(buildDir, "exec-gate");
  const broker = path.join(buildDir, "exec-broker");
  const shim = path.join(buildDir, "loader-shim");
  for (const helper of [guard, stub, gate, broker])
    if (!isExecutableFile(helper))
      throw new BubblewrapUnavailableError({
        bwrapPath,
        message: `bubblewrap executor: execEnforcement needs the native helper '${helper}', which is not built (run 'sh ${path.join(buildDir, "..", "build.sh")}'; it needs a C compiler)`,
      });
  return { guard, stub, gate, broker, ...(isExecutableFile(shim) ? { shim } : {}) };
}

/** What exec-guard lets run (sandbox paths). */
export interface GuardAccess {
  /** Folders whose files may run (and be mapped executable). */
  exec: readonly string[];
  /** Folders whose files may be mapped executable (libraries) but run only if listed in `files`. */
  map?: readonly string[];
  /** Single files that may run (an allow list's programs). */
  files?: readonly string[];
}

/** The argv that runs `command` under exec-guard with `access` (sandbox paths). */
export function guardedCommand(access: GuardAccess, command: readonly string[]): string[] {
  return [
    SANDBOX_EXEC_GUARD,
    ...access.exec.flatMap((root) => ["--exec", root]),
    ...(access.map ?? []).flatMap((root) => ["--map", root]),
    ...(access.files ?? []).flatMap((file) => ["--exec-file", file]),
    "--",
    ...command,
  ];
}

/**
 * The bwrap arguments a guarded command needs: exec-guard bound in, and the two capabilities it uses before it drops
 * every capability (CAP_SYS_ADMIN to remount noexec, CAP_SETPCAP to empty the bounding set). Inside the sandbox's user
 * namespace only; after `--cap-drop ALL`.
 */
export function guardArgs(helpers: ExecEnforcementHelpers): string[] {
  return ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP", "--ro-bind", helpers.guard, SANDBOX_EXEC_GUARD];
}

/** Where the sandbox shows a host path, if it shows it. */
export function sandboxPathOf(hostPath: string, visible: readonly VisibleFolder[]): string | undefined {
  for (const { host, sandbox } of visible) {
    if (hostPath === host) return sandbox;
    if (hostPath.startsWith(`${host}/`)) return sandbox + hostPath.slice(host.length);
  }
  return undefined;
}

/** Whether a file can be run: an exec bit, or an ELF header (ld.so loads an ELF without one). */
function isProgramFile(file: string, mode: number): boolean {
  if (mode & 0o111) return true;
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString("latin1") === "\x7fELF";
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** One file of a program inside the sandbox: where the sandbox shows it, and the host file it is. */
export interface ProgramFile {
  sandbox: string;
  host: string;
}

/** The program files `folder` adds (the file a name resolves to may lie in another visible folder). */
function folderTargets(
  names: ReadonlySet<string>,
  folder: VisibleFolder,
  visible: readonly VisibleFolder[],
): ProgramFile[] {
  const targets: ProgramFile[] = [];
  for (const found of filesNamed(folder, names)) {
    let real: string;
    try {
      real = realpathSync(found);
      const stat = statSync(real);
      if (!stat.isFile() || !isProgramFile(real, stat.mode)) continue;
    } catch {
      continue; // a dangling symlink runs nothing
    }
    const inside = sandboxPathOf(real, visible);
    if (inside) targets.push({ sandbox: inside, host: real });
    for (const other of visible)
      for (const link of hardLinksOf(other, real)) {
        const linkInside = sandboxPathOf(link, visible);
        if (linkInside) targets.push({ sandbox: linkInside, host: link });
      }
  }
  return targets;
}

const stableTargets = new Map<string, ProgramFile[]>();

/**
 * Every file a program of one of these names is inside the sandbox: every program file (exec bit or ELF) named so
 * beneath the visible folders, resolved to the file it is (a symlink's target, so every name of a multi-call binary
 * comes with it: `pkill` is `pgrep` on Debian), plus that file's hard links. What stable folders (/usr) add is
 * computed once per name list and visible set.
 * @param programs program names (no `/`)
 * @param visible host folders the sandbox shows, and where (the exec roots: /usr, the skill, its environment, ...)
 */
export function programFiles(programs: readonly string[], visible: readonly VisibleFolder[]): ProgramFile[] {
  if (programs.length === 0) return [];
  const names = new Set(programs);
  const targets = new Map<string, ProgramFile>();
  const key = JSON.stringify([[...names].sort(), visible]);
  for (const folder of visible) {
    let found: ProgramFile[] | undefined;
    if (folder.stable) {
      const cacheKey = `${key}\0${folder.host}`;
      found = stableTargets.get(cacheKey);
      if (!found) {
        found = folderTargets(names, folder, visible);
        stableTargets.set(cacheKey, found);
      }
    } else found = folderTargets(names, folder, visible);
    for (const target of found) targets.set(target.sandbox, target);
  }
  return [...targets.values()].sort((a, b) => (a.sandbox < b.sandbox ? -1 : a.sandbox > b.sandbox ? 1 : 0));
}

/**
 * Sandbox paths to bind the stub over, so no name of a denied program runs it (see {@link programFiles}).
 * @param programs denied program names (no `/`)
 * @param visible host folders the sandbox shows, and where
 */
export function deniedProgramPaths(programs: readonly string[], visible: readonly VisibleFolder[]): string[] {
  return programFiles(programs, visible).map((file) => file.sandbox);
}

/** Indexes the stable folders now (seconds for /usr), so the first command's time is not spent on it. */
export function warmProgramIndex(visible: readonly VisibleFolder[]): void {
  deniedProgramPaths(
    ["\0"],
    visible.filter((folder) => folder.stable),
  );
}

/** bwrap arguments binding the stub over each path. */
export function stubArgs(stub: string, sandboxPaths: readonly string[]): string[] {
  return sandboxPaths.flatMap((target) => ["--ro-bind", stub, target]);
}

/**
 * Runs `true` under exec-guard in a sandbox once, so a kernel without Landlock or a bwrap that refuses the
 * capabilities fails at creation with the guard's own message, not at the first command.
 */
export function probeExecGuard(bwrapPath: string, baseArgs: readonly string[], helpers: ExecEnforcementHelpers): void {
  const probe = spawnSync(
    bwrapPath,
    [
      ...baseArgs,
      ...guardArgs(helpers),
      "--remount-ro",
      "/",
      "--",
      ...guardedCommand({ exec: ["/usr"] }, ["/usr/bin/true"]),
    ],
    { encoding: "utf8", timeout: 10_000, env: { PATH: "/usr/bin:/bin" } },
  );
  if (probe.status !== 0) {
    const detail = (probe.stderr || probe.error?.message || `exit ${probe.status ?? probe.signal}`).trim();
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message: `bubblewrap executor: exec enforcement cannot be set up here (${detail})`,
    });
  }
}
