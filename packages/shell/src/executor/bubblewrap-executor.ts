import { spawnSync } from "node:child_process";
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import { isExecutableFile, resolveExecutable } from "../policy/program-resolution.js";
import { commandEnvironment, mapHostPrefix } from "./command-environment.js";
import type { CommandExecutor, CommandView, ExecutionRequest } from "./executor-types.js";
import { spawnCommand, type SpawnSpec } from "./spawn-command.js";
import { ptyCommand } from "./pty-command.js";
import type { CommandLimits } from "./command-limits.js";
import { startPrefix } from "./start-prefix.js";
import { bashCommand } from "./bash-command.js";
import { startInCommandCgroup } from "./command-cgroup.js";
import { createArmedLauncher } from "./armed-launcher.js";
import {
  deniedProgramPaths,
  findExecEnforcementHelpers,
  guardArgs,
  guardedCommand,
  probeExecGuard,
  stubArgs,
  warmProgramIndex,
  type ExecEnforcementHelpers,
} from "./exec-enforcement.js";
import type { VisibleFolder } from "./program-index.js";
import { callGates, startExecBroker, type CallGates } from "./exec-broker.js";
import { withBrokeredStarts } from "./brokered-command.js";
import { allowListAccess } from "./allow-list-access.js";
import { gatedCopiesFolder } from "./gated-program-copies.js";
import {
  parseRepositoryOptions,
  type RepositoryOptions,
  type RepositoryOptionsInput,
} from "../repository/repository-options.js";
import {
  type RepositoryBinds,
  type RepositoryRoot,
  sanitizedRepositoryBinds,
  sanitizedRepositoryBindsAsync,
} from "../repository/sanitized-repositories.js";

/** Options of {@link createBubblewrapExecutor}. */
export interface BubblewrapExecutorOptions {
  /** Path of the `bwrap` binary. @default "bwrap" resolved on /usr/local/bin:/usr/bin:/bin */
  bwrapPath?: string;
  /** Give commands the host network. @default false (only a private loopback exists) */
  network?: boolean;
  /** More host paths bound read-only at the same place (e.g. a toolchain under /opt). */
  readOnlyPaths?: readonly string[];
  /** Run `true` in a sandbox once at creation, so a bwrap that cannot work here (no user namespaces) fails early. @default true */
  probe?: boolean;
  /** Resource limits (set by the shell hook from its `limits` option). */
  limits?: CommandLimits;
  /**
   * Enforce the request's `deniedPrograms` where programs start, whoever starts them: each denied program is replaced
   * by a refusing stub at every path it has in the sandbox, files run only from the read-only system and skill
   * folders (Landlock), every other mount is noexec and memfd_create fails. Programs with argument-level rules
   * (`execRules`: `git push` denied or needing approval) are replaced by a gate whose every start is judged on its real
   * argv by the runtime and, when allowed, run by a host broker in a fresh sandbox of the same kind. Under an allow list
   * (`execRules.allow`) only the admitted programs' files may run, and the dynamic loader only as an interpreter (a
   * shim stands in for it). Needs the native helpers
   * (`native/build.sh`, run at install); creation fails without them. @default false
   */
  execEnforcement?: boolean;
  /**
   * The git repositories a command can reach (every git folder under the workspace and the skill folder): unless
   * `trustConfig`, each is seen with a sanitised read-only copy of its configuration and no hooks (docs/security.md).
   */
  repository?: RepositoryOptionsInput;
}

/** HOME inside the sandbox: a fresh folder on the private /tmp, empty at every command. */
const SANDBOX_HOME = "/tmp/home";
/** Where a skill's environment (venv) appears inside the sandbox. */
export const SANDBOX_ENVIRONMENT = "/env";

/** Where the workspace and the skill folder appear inside the sandbox. */
export const SANDBOX_WORKSPACE = "/workspace";
/** Where the skill folder appears inside the sandbox (read-only). */
export const SANDBOX_SKILL_DIR = "/skill";
/** Where `$SKILLS_DIR` is in the sandbox: it holds `<skill folder's name>` -> /skill. */
export const SANDBOX_SKILLS_DIR = "/skills";

/** Top-level system folders: a symlink into /usr on merged-/usr systems, else bound read-only. */
const SYSTEM_TOP_FOLDERS = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

const etcFiles = [
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/localtime",
  "/etc/mime.types",
];

/**
 * Runs each command in a bubblewrap sandbox (Linux): all namespaces unshared (network off unless `network: true`),
 * `/usr` and the skill folder read-only, the workspace the only writable folder, a private /tmp and /proc, a
 * read-only /dev with a private /dev/shm, a cleared environment, all capabilities dropped, and the sandbox dies with
 * its parent.
 * @param options where bwrap is, network, extra read-only paths
 * @throws BubblewrapUnavailableError when bwrap is missing or not executable, or off Linux
 * @example const executor = createBubblewrapExecutor({ network: false });
 */
export function createBubblewrapExecutor(options: BubblewrapExecutorOptions = {}): CommandExecutor {
  const bwrapPath = options.bwrapPath ?? resolveExecutable("bwrap") ?? "bwrap";
  if (process.platform !== "linux") {
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message: `bubblewrap executor: bubblewrap runs on Linux only (this is ${process.platform}); use executor 'local'`,
    });
  }
  if (!path.isAbsolute(bwrapPath) || !isExecutableFile(bwrapPath)) {
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message: `bubblewrap executor: bwrap not found or not executable at '${bwrapPath}' (install the 'bubblewrap' package, or set bwrapPath, or use executor 'local')`,
    });
  }
  // every command starts through bash, which closes the descriptors this process inherited (start-prefix.ts)
  const bashPath = resolveExecutable("bash");
  if (!bashPath) {
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message: "bubblewrap executor: bash not found in /usr/bin or /bin (it starts every command: install 'bash')",
    });
  }
  const baseArgs = sandboxBaseArgs(options);
  const networkedArgs = options.network ? baseArgs : sandboxBaseArgs({ ...options, network: true });
  if (options.probe ?? true) probeSandbox(bwrapPath, baseArgs);
  const helpers = options.execEnforcement ? findExecEnforcementHelpers(bwrapPath) : undefined;
  if (helpers && (options.probe ?? true)) probeExecGuard(bwrapPath, baseArgs, helpers);
  if (helpers) warmProgramIndex(systemExecRoots(options));
  if (helpers) gatedCopiesFolder(bwrapPath);
  const repository = parseRepositoryOptions(options.repository);
  const spec = (
    request: ExecutionRequest,
    cgroupPrefix: readonly string[],
    repositories: RepositoryBinds,
    gates?: CallGates,
  ): SpawnSpec & { sandbox: string[]; guard: string[] } => {
    const view = sandboxView(request);
    const mappings: Array<readonly [string, string]> = [[request.workspaceDir, SANDBOX_WORKSPACE]];
    if (request.skillDir) mappings.unshift([request.skillDir, SANDBOX_SKILL_DIR]);
    if (request.skillEnvironment) mappings.unshift([request.skillEnvironment.hostDir, SANDBOX_ENVIRONMENT]);
    const map = (value: string) => mapHostPrefix(value, mappings);
    const folders = {
      tmpDir: "/tmp",
      homeDir: SANDBOX_HOME,
      ...(request.skillEnvironment ? { environmentDir: SANDBOX_ENVIRONMENT } : {}),
      repositoriesSanitized: !repository.trustConfig,
    };
    const env = commandEnvironment(request, view, folders, map);
    const base = request.network ? networkedArgs : baseArgs;
    const args = [
      ...(gates ? withSharedTmp(base, gates.tmpDir) : base),
      "--bind",
      request.workspaceDir,
      SANDBOX_WORKSPACE,
    ];
    if (request.skillDir)
      args.push(
        "--ro-bind",
        request.skillDir,
        SANDBOX_SKILL_DIR,
        // $SKILLS_DIR/<skill folder> is the skill too (trpc-agent-go's layout)
        "--dir",
        SANDBOX_SKILLS_DIR,
        "--symlink",
        SANDBOX_SKILL_DIR,
        `${SANDBOX_SKILLS_DIR}/${path.basename(request.skillDir)}`,
      );
    if (request.skillEnvironment)
      args.push(
        request.skillEnvironment.writable ? "--bind" : "--ro-bind",
        request.skillEnvironment.hostDir,
        SANDBOX_ENVIRONMENT,
      );
    for (const extra of request.readOnlyPaths ?? []) args.push("--ro-bind", extra, extra);
    args.push(...repositories.args);
    // the stubs go after every other bind, so they cover the files those binds show
    const roots = helpers ? execRoots(request, options) : [];
    if (helpers) args.push(...enforcementArgs(helpers, request, roots));
    if (gates) args.push(...gates.bindArgs);
    const allowed = helpers ? callAllowAccess(helpers, request, roots, gates) : undefined;
    if (allowed) args.push(...allowed.bindArgs);
    // the sandbox root (and /etc, /opt, ... on it) becomes read-only too; only the workspace and /tmp stay writable
    args.push("--remount-ro", "/");
    const sandbox = [bwrapPath, ...args];
    args.push("--chdir", map(request.cwd));
    for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
    const typed = request.shellCommand !== undefined ? bashCommand(request.shellCommand) : request.argv.map(map);
    const command = request.pty ? ptyCommand(typed) : typed;
    const guard = guardedCommand(allowed?.access ?? { exec: roots.map((root) => root.sandbox) }, []).slice(0, -1);
    args.push("--", ...(helpers ? [...guard, "--", ...command] : command));
    // bwrap itself carries the run marker too, so a /proc sweep finds it; the start prefix execs bwrap (same pid, same limits)
    const [file, ...rest] = [...cgroupPrefix, ...startPrefix(options.limits, bashPath), bwrapPath, ...args];
    return {
      file: file as string,
      args: rest,
      cwd: request.workspaceDir,
      env: { PATH: env.PATH as string, SKILLGRAPH_RUN_ID: request.runId },
      sandbox,
      guard,
      // the sandbox's PID namespace: when bwrap exits, the kernel has already ended every process of the command
      contained: true,
    };
  };
  const limits = options.limits;
  // commands start through a launcher armed ahead, in their cgroup where there are cgroups (no fork of this process
  // and no move on their path; exec enforcement too, but a call whose rules gate programs: it starts with its broker)
  const launcher = createArmedLauncher({ bashPath, host: limits?.cgroups, limits });
  const spawnWithGates = (
    request: ExecutionRequest,
    prefix: readonly string[],
    repositories: RepositoryBinds,
    gates?: CallGates,
  ) => {
    const built = spec(request, prefix, repositories, gates);
    if (!gates || !helpers || !request.execRules) return spawnCommand(built, request);
    const broker = startExecBroker({
      helpers,
      gates,
      rules: request.execRules,
      prefix: [...prefix, ...startPrefix(options.limits, bashPath)],
      sandbox: built.sandbox,
      guard: built.guard,
      env: built.env,
    });
    return withBrokeredStarts(spawnCommand(built, request), broker);
  };
  const launch = (request: ExecutionRequest, repositories: RepositoryBinds, gates?: CallGates) =>
    (gates ? undefined : launcher?.launch(spec(request, [], repositories), request)) ??
    (limits
      ? startInCommandCgroup({ host: limits.cgroups, limits, runId: request.runId, startsNamespace: true }, (prefix) =>
          spawnWithGates(request, prefix, repositories, gates),
        )
      : spawnWithGates(request, [], repositories, gates));
  const start = (request: ExecutionRequest, repositories = repositoryBinds(request, repository)) => {
    const gates =
      helpers && request.execRules && request.execRules.programs.length > 0
        ? callGates(helpers, request.execRules.programs, execRoots(request, options))
        : undefined;
    const cleanup = () => {
      repositories.cleanup();
      gates?.cleanup();
    };
    try {
      const running = launch(request, repositories, gates);
      void running.result.finally(cleanup).catch(() => undefined);
      return running;
    } catch (error) {
      cleanup();
      throw error;
    }
  };
  // the repository scan in slices that yield to the event loop (the synchronous `start` scans in one go)
  const startAsync = async (request: ExecutionRequest) =>
    start(request, await repositoryBindsAsync(request, repository));
  return {
    name: "bubblewrap",
    sandbox: { network: options.network === true },
    view: sandboxView,
    start: (request) => start(request),
    startAsync,
    run: async (request) => {
      const running = await startAsync(request);
      if (request.stdin !== undefined) running.write(request.stdin);
      running.closeStdin();
      return running.result;
    },
  };
}

/** The sanitised views of the repositories under the workspace and the skill folder (none when the user trusts them). */
function repositoryBinds(request: ExecutionRequest, options: RepositoryOptions): RepositoryBinds {
  if (options.trustConfig) return { args: [], cleanup: () => undefined };
  return sanitizedRepositoryBinds(repositoryRoots(request), options);
}

/** The folders a command reaches that may hold repositories: the workspace and the skill folder. */
function repositoryRoots(request: ExecutionRequest): RepositoryRoot[] {
  const roots = [{ host: request.workspaceDir, sandbox: SANDBOX_WORKSPACE }];
  if (request.skillDir) roots.push({ host: request.skillDir, sandbox: SANDBOX_SKILL_DIR });
  // the skill folder shown at its host path too (a read-only path) gets the same sanitised view there
  if (request.skillDir && request.readOnlyPaths?.includes(request.skillDir))
    roots.push({ host: request.skillDir, sandbox: request.skillDir });
  return roots;
}

/** {@link repositoryBinds} without holding the event loop (the scan yields between short slices). */
async function repositoryBindsAsync(request: ExecutionRequest, options: RepositoryOptions): Promise<RepositoryBinds> {
  if (options.trustConfig) return { args: [], cleanup: () => undefined };
  return sanitizedRepositoryBindsAsync(repositoryRoots(request), options);
}

/** The folders files may run from, as host and sandbox paths: /usr (and unmerged /bin, /lib...), extra read-only paths, the skill and its environment. */
function execRoots(request: ExecutionRequest, options: BubblewrapExecutorOptions): VisibleFolder[] {
  const roots = systemExecRoots(options);
  for (const extra of request.readOnlyPaths ?? []) roots.push({ host: extra, sandbox: extra, stable: false });
  if (request.skillDir) roots.push({ host: request.skillDir, sandbox: SANDBOX_SKILL_DIR, stable: false });
  if (request.skillEnvironment)
    roots.push({ host: request.skillEnvironment.hostDir, sandbox: SANDBOX_ENVIRONMENT, stable: false });
  return roots;
}

/** The exec roots every command has: /usr, unmerged top-level system folders, the executor's read-only paths. */
function systemExecRoots(options: BubblewrapExecutorOptions): VisibleFolder[] {
  const roots: VisibleFolder[] = [{ host: "/usr", sandbox: "/usr", stable: true }];
  for (const top of SYSTEM_TOP_FOLDERS) {
    try {
      if (lstatSync(top).isDirectory()) roots.push({ host: top, sandbox: top, stable: true });
    } catch {
      // absent on this system
    }
  }
  for (const extra of options.readOnlyPaths ?? []) roots.push({ host: extra, sandbox: extra, stable: true });
  return roots;
}

/** What exec-guard lets run under the call's allow list (undefined without one: the exec roots, as before). */
function callAllowAccess(
  helpers: ExecEnforcementHelpers,
  request: ExecutionRequest,
  roots: readonly VisibleFolder[],
  gates: CallGates | undefined,
): ReturnType<typeof allowListAccess> | undefined {
  const allow = request.execRules?.allow;
  if (!allow) return undefined;
  return allowListAccess({
    helpers,
    allow,
    roots,
    ...(request.skillDir ? { skillFolder: SANDBOX_SKILL_DIR } : {}),
    gatedPaths: gates ? [...gates.files.keys()] : [],
    pty: request.pty === true,
  });
}

/** Stubs over the request's denied programs, and exec-guard bound in with the capabilities it drops. */
function enforcementArgs(
  helpers: ExecEnforcementHelpers,
  request: ExecutionRequest,
  roots: readonly VisibleFolder[],
): string[] {
  return [...guardArgs(helpers), ...stubArgs(helpers.stub, deniedProgramPaths(request.deniedPrograms ?? [], roots))];
}

function probeSandbox(bwrapPath: string, baseArgs: readonly string[]): void {
  const trueProgram = resolveExecutable("true") ?? "/usr/bin/true";
  const probe = spawnSync(bwrapPath, [...baseArgs, "--", trueProgram], {
    encoding: "utf8",
    timeout: 10_000,
    env: { PATH: "/usr/bin:/bin" },
  });
  if (probe.status !== 0) {
    const detail = (probe.stderr || probe.error?.message || `exit ${probe.status ?? probe.signal}`).trim();
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message: `bubblewrap executor: '${bwrapPath}' cannot create a sandbox here (${detail}); user namespaces may be disabled — use executor 'local' or enable them`,
    });
  }
}

function sandboxView(request: Pick<ExecutionRequest, "workspaceDir" | "skillDir">): CommandView {
  return {
    workspaceDir: SANDBOX_WORKSPACE,
    skillDir: request.skillDir ? SANDBOX_SKILL_DIR : undefined,
    ...(request.skillDir ? { skillsDir: SANDBOX_SKILLS_DIR } : {}),
  };
}

/** The base arguments with /tmp a host folder (shared with brokered runs) instead of a private tmpfs. */
function withSharedTmp(base: readonly string[], tmpDir: string): string[] {
  const at = base.lastIndexOf("/tmp");
  if (at < 1 || base[at - 1] !== "--tmpfs") return [...base];
  const sized = base[at - 3] === "--size" ? 2 : 0;
  return [...base.slice(0, at - 1 - sized), "--bind", tmpDir, "/tmp", ...base.slice(at + 1)];
}

/** The bwrap arguments shared by every command: namespaces, read-only system folders, private /tmp. */
export function sandboxBaseArgs(options: BubblewrapExecutorOptions): string[] {
  const args = ["--unshare-all"];
  if (options.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL", "--ro-bind", "/usr", "/usr");
  for (const top of SYSTEM_TOP_FOLDERS) {
    try {
      const stat = lstatSync(top);
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(top), top);
      else if (stat.isDirectory()) args.push("--ro-bind", top, top);
    } catch {
      // absent on this system
    }
  }
  for (const file of etcFiles) args.push("--ro-bind-try", file, file);
  if (options.network)
    args.push("--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf", "--ro-bind-try", "/etc/hosts", "/etc/hosts");
  for (const extra of options.readOnlyPaths ?? []) args.push("--ro-bind", extra, extra);
  // bwrap's /dev is an unsized tmpfs: read-only, so nothing but device nodes can be written there (bwrap 0.8 takes no
  // --size for --dev); /dev/shm gets a tmpfs of its own, sized when limits are on (`--remount-ro` leaves it writable)
  args.push("--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev");
  if (options.limits)
    args.push("--size", String(Math.min(options.limits.sharedMemoryBytes, options.limits.memoryBytes)));
  args.push("--tmpfs", "/dev/shm");
  if (options.limits) args.push("--size", String(options.limits.tmpBytes));
  args.push("--tmpfs", "/tmp", "--dir", SANDBOX_HOME);
  return args;
}
