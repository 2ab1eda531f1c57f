import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveExecutable } from "../policy/program-resolution.js";
import type { CommandLimits } from "./command-limits.js";
import { startPrefix } from "./start-prefix.js";
import { bashCommand } from "./bash-command.js";
import { commandEnvironment } from "./command-environment.js";
import { startInCommandCgroup } from "./command-cgroup.js";
import { createArmedLauncher } from "./armed-launcher.js";
import type { CommandExecutor, ExecutionRequest, ExecutionResult, RunningCommand } from "./executor-types.js";
import { ptyCommand } from "./pty-command.js";
import { spawnCommand, type SpawnSpec } from "./spawn-command.js";

/** Options of {@link createLocalExecutor}. */
export interface LocalExecutorOptions {
  /** Resource limits (set by the shell hook from its `limits` option). */
  limits?: CommandLimits;
  /**
   * Run each command in its own PID namespace (util-linux `unshare`), with a private /proc and tied to this process:
   * the command cannot read this process's environment through /proc, and its whole tree dies when this process does,
   * even by SIGKILL. Falls back to plain child processes (with a warning) where namespaces are not allowed.
   * @default true
   */
  isolateProcesses?: boolean;
}

let unsafeWarned = false;

/** The argv prefix that puts a command in its own PID namespace tied to this process, or [] when that cannot work here. */
function processIsolationPrefix(): string[] {
  const unshare = resolveExecutable("unshare");
  const setpriv = resolveExecutable("setpriv");
  if (process.platform !== "linux" || !unshare || !setpriv) return [];
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const user = uid === 0 ? [] : ["--user", `--map-user=${uid}`, `--map-group=${gid}`];
  const prefix = [
    setpriv,
    "--pdeathsig",
    "KILL",
    "--",
    unshare,
    ...user,
    "--pid",
    "--fork",
    "--kill-child",
    "--mount-proc",
    "--",
  ];
  const trueProgram = resolveExecutable("true") ?? "/bin/true";
  const probe = spawnSync(prefix[0] as string, [...prefix.slice(1), trueProgram], {
    timeout: 10_000,
    env: { PATH: "/usr/bin:/bin" },
  });
  if (probe.status === 0) return prefix;
  process.emitWarning(
    `@skillgraph/shell: local executor cannot use PID namespaces here (${String(probe.stderr ?? "").trim() || `exit ${probe.status}`}); commands run as plain child processes`,
  );
  return [];
}

/**
 * Runs commands as child processes of this Node process: NOT a sandbox. Commands have this process's user, files and
 * network. What it does give: a scrubbed, allow-listed environment, a fresh HOME per command, resource limits, each
 * command in its own PID namespace where `unshare` works (no view of other processes, killed with this process), and
 * timeouts that kill the whole tree. Use {@link createBubblewrapExecutor} for isolation.
 * @example const executor = createLocalExecutor();
 */
export function createLocalExecutor(options: LocalExecutorOptions = {}): CommandExecutor {
  if (!unsafeWarned) {
    unsafeWarned = true;
    process.emitWarning(
      "@skillgraph/shell: the 'local' executor is not a sandbox: commands the model runs can read and write whatever this process can (see docs/security.md)",
    );
  }
  const isolation = options.isolateProcesses === false ? [] : processIsolationPrefix();
  // every command starts through bash, which closes the descriptors this process inherited (start-prefix.ts); with
  // no bash found, each command fails to start (nothing runs with those descriptors)
  const bashPath = resolveExecutable("bash") ?? "/bin/bash";
  const spec = (request: ExecutionRequest, homeDir: string, cgroupPrefix: readonly string[]): SpawnSpec => {
    const tmpDir = path.join(request.workspaceDir, ".tmp");
    mkdirSync(tmpDir, { recursive: true });
    const view = { workspaceDir: request.workspaceDir, skillDir: request.skillDir };
    const folders = {
      tmpDir,
      homeDir,
      ...(request.skillEnvironment ? { environmentDir: request.skillEnvironment.hostDir } : {}),
    };
    const env = commandEnvironment(request, view, folders, (value) => value);
    const command = request.shellCommand !== undefined ? bashCommand(request.shellCommand) : request.argv;
    const [file, ...args] = [
      ...cgroupPrefix,
      ...startPrefix(options.limits, bashPath),
      ...isolation,
      ...(request.pty ? ptyCommand(command) : command),
    ];
    return { file: file as string, args, cwd: request.cwd, env };
  };
  const limits = options.limits;
  // commands start through a launcher armed ahead, in their cgroup where there are cgroups (no fork of this process
  // and no move on their path); see armed-launcher.ts
  const launcher = createArmedLauncher({ bashPath, host: limits?.cgroups, limits });
  const start = (request: ExecutionRequest): RunningCommand => {
    // a fresh HOME outside the workspace for each command, removed when it ends
    const homeDir = mkdtempSync(path.join(os.tmpdir(), "skillgraph-home-"));
    const running =
      launcher?.launch(spec(request, homeDir, []), request) ??
      (limits
        ? startInCommandCgroup(
            { host: limits.cgroups, limits, runId: request.runId, startsNamespace: isolation.length > 0 },
            (prefix) => spawnCommand(spec(request, homeDir, prefix), request),
          )
        : spawnCommand(spec(request, homeDir, []), request));
    void running.result.finally(() => rmSync(homeDir, { recursive: true, force: true }));
    return running;
  };
  const run = (request: ExecutionRequest): Promise<ExecutionResult> => {
    const running = start(request);
    if (request.stdin !== undefined) running.write(request.stdin);
    running.closeStdin();
    return running.result;
  };
  return {
    name: "local",
    view: (request) => ({ workspaceDir: request.workspaceDir, skillDir: request.skillDir }),
    start,
    run,
  };
}
