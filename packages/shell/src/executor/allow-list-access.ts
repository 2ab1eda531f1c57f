// The allow list where programs start (bubblewrap with exec enforcement): exec-guard lets exactly the files of the
// admitted programs run (Landlock execute on single files), plus what every command needs (the shells, `env` for
// `#!/usr/bin/env` lines, the dynamic loader through loader-shim) and the skill's own folder. Design:
// docs/design/exec-enforcement.md.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import type { ExecAllowList } from "../policy/exec-time-allow.js";
import { programFiles, sandboxPathOf, type ExecEnforcementHelpers, type GuardAccess } from "./exec-enforcement.js";
import type { VisibleFolder } from "./program-index.js";

/** Where the real dynamic loader is shown under an allow list: mappable, never executable (loader-shim maps it). */
export const SANDBOX_LOADER_DIR = "/.skillgraph-loader";

/** The dynamic loader's file name (x86-64 only: exec-guard refuses every other system call ABI). */
const LOADER_NAME = "ld-linux-x86-64.so.2";

/**
 * Programs every command may start under an allow list: the shells a line and git's, make's and `system()`'s
 * commands run in (a shell only starts programs that are judged in turn), and `env` (`#!/usr/bin/env python3`).
 */
const ALWAYS_ADMITTED = ["bash", "sh", "env"];

let gitExecPath: string | null | undefined;

/** git's own helper folder (`git --exec-path`: /usr/lib/git-core), asked of the host's git once per process. */
function gitHelperFolder(): string | undefined {
  if (gitExecPath === undefined) {
    const asked = spawnSync("git", ["--exec-path"], {
      encoding: "utf8",
      timeout: 10_000,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
    });
    let folder: string | null = null;
    try {
      folder = asked.status === 0 ? realpathSync(asked.stdout.trim()) : null;
    } catch {
      folder = null;
    }
    gitExecPath = folder;
  }
  return gitExecPath ?? undefined;
}

/** Helper folders whose every file is part of an admitted program (git's builtins and helpers in git-core). */
function helperFolders(wholly: readonly string[]): string[] {
  const git = wholly.includes("git") ? gitHelperFolder() : undefined;
  return git ? [git] : [];
}

/** Options of {@link allowListAccess}. */
export interface AllowListAccessOptions {
  helpers: ExecEnforcementHelpers;
  allow: ExecAllowList;
  /** The exec roots (host and sandbox paths). */
  roots: readonly VisibleFolder[];
  /** Sandbox folder of the call's skill (its own scripts run without a rule, as the planner lets them). */
  skillFolder?: string;
  /** Sandbox paths of the gates (programs with argument-level rules): their starts are judged by the broker. */
  gatedPaths: readonly string[];
  /** The command runs under util-linux `script` (a pseudo-terminal). */
  pty: boolean;
}

/** The bwrap arguments (the loader shim over the dynamic loader) and exec-guard's access for an allow list. */
export function allowListAccess(options: AllowListAccessOptions): { bindArgs: string[]; access: GuardAccess } {
  const { helpers, allow, roots } = options;
  const names = [...allow.wholly, ...ALWAYS_ADMITTED, ...(options.pty ? ["script"] : [])];
  // one name at a time: what /usr holds for a name is cached per name, whatever allow list it comes in
  const files = new Set(names.flatMap((name) => programFiles([name], roots).map((file) => file.sandbox)));
  for (const gated of options.gatedPaths) files.add(gated);
  const bindArgs: string[] = [];
  const shim = helpers.shim;
  if (!shim)
    throw new BubblewrapUnavailableError({
      bwrapPath: "bwrap",
      message: `bubblewrap executor: an allow list at exec time needs the native helper 'loader-shim', built on x86-64 only (this machine: ${process.arch}); run without execEnforcement or without an allow list`,
    });
  const loaders = programFiles([LOADER_NAME], roots);
  const real = loaders[0]?.host;
  if (real) {
    bindArgs.push("--ro-bind", real, `${SANDBOX_LOADER_DIR}/ld.so`);
    for (const loader of loaders) {
      bindArgs.push("--ro-bind", shim, loader.sandbox);
      files.add(loader.sandbox);
    }
  }
  const exec = options.skillFolder ? [options.skillFolder] : [];
  for (const folder of helperFolders(allow.wholly)) {
    const inside = sandboxPathOf(folder, roots);
    if (inside) exec.push(inside);
  }
  const map = roots.map((root) => root.sandbox).filter((root) => root !== options.skillFolder);
  if (real) map.push(SANDBOX_LOADER_DIR);
  return { bindArgs, access: { exec, map, files: [...files].sort() } };
}
