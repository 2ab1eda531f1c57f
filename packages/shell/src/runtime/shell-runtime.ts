import path from "node:path";
import { createBubblewrapExecutor } from "../executor/bubblewrap-executor.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import { createLocalExecutor } from "../executor/local-executor.js";
import type { ShellHookOptions, ShellToolName } from "../hook/shell-hook-options.js";
import { compileApprovalRules, type CompiledApprovalRule } from "../policy/approval-rules.js";
import type { ShellSkillCatalog } from "../hook/skills-tool-hook.js";
import {
  DEFAULT_ALLOWED_ENV_NAMES,
  DEFAULT_DENIED_PROGRAMS,
  RESERVED_ENV_NAMES,
  type CommandPolicy,
} from "../policy/command-policy.js";
import { resolveLimits, type CommandLimits } from "../executor/command-limits.js";
import { parseCommandRule, type CommandRule } from "../policy/command-rules.js";
import { DEFAULT_FIXED_PATH, resolveExecutable } from "../policy/program-resolution.js";
import { SessionStore } from "../sessions/session-store.js";
import { ThreadWorkspaces } from "../workspace/thread-workspaces.js";
import { integerOption, InvalidOptionsError } from "../internal/core.js";
import { InMemoryStore, type BaseStore } from "@langchain/langgraph";
import { artifactStoreFromBaseStore, type ArtifactQuota, type ArtifactStore } from "../artifacts/artifact-store.js";
import { defaultEnvironmentRoot } from "../environments/skill-environments.js";

/** Everything the shell tools share, built once from the options. */
export interface ShellRuntime {
  catalog: ShellSkillCatalog;
  executor: CommandExecutor;
  policy: CommandPolicy;
  workspaces: ThreadWorkspaces;
  sessions: SessionStore;
  sessionsEnabled: boolean;
  maxSessionsPerThread: number;
  maxUnreadBytes: number;
  approvalRules: readonly CompiledApprovalRule[];
  requireSkillRead: boolean;
  checkRequirements: boolean;
  timeoutMs: number;
  maxTimeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  killAfterOutputBytes: number;
  outputFiles: { maxFiles: number; maxFileBytes: number; inlineTextBytes: number };
  alwaysVisible: ReadonlySet<ShellToolName>;
  removeWorkspacesOnDispose: boolean;
  loadedSkills: ShellHookOptions["loadedSkills"];
  agentId: string;
  /** Fixed environment values from `environment.set`. */
  fixedEnv: Readonly<Record<string, string>>;
  /** Resource limits per command, or undefined when turned off. */
  limits: CommandLimits | undefined;
  /** Artifacts: `false` when off; else a fixed store, or undefined to use the graph's store. */
  artifacts: false | { store?: ArtifactStore; maxBytes: number; quota: ArtifactQuota };
  stageAttachments: boolean;
  /** Per-skill environments, or undefined when off. */
  skillEnvironments:
    | { root: string; approve: "interrupt" | "always" | "never"; pipArgs: readonly string[]; installTimeoutMs: number }
    | undefined;
  /** Host folders `host://<name>/...` inputs may copy from, by name. */
  hostInputs: ReadonlyMap<string, string>;
  /** Artifact versions pinned by `pin: true` inputs, per thread (in this process). */
  pinnedArtifacts: Map<string, Map<string, number>>;
  /** sha256 of attachments already staged, per thread. */
  stagedAttachments: Map<string, Set<string>>;
  /** Loaded skill names `authorize` last saw, per thread. */
  seenLoaded: Map<string, readonly string[]>;
}

const allToolNames: ShellToolName[] = [
  "run_skill_script",
  "shell",
  "shell_session_write",
  "shell_session_poll",
  "shell_session_kill",
];

/** setTimeout's largest delay: a longer timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Buffers past this size cannot be allocated in one piece (and would not fit in a tool result anyway). */
const MAX_BUFFER_BYTES = 1024 ** 3;

/** A positive integer no larger than `max` (core's one integer-option check), or the fallback when undefined. */
function bounded(option: string, value: number | undefined, fallback: number, max: number): number {
  return value === undefined ? fallback : integerOption(option, value, { max });
}

function stringList(option: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new InvalidOptionsError({ option, value, message: "must be an array of strings" });
  }
  return value as string[];
}

function environmentsOptions(options: ShellHookOptions): ShellRuntime["skillEnvironments"] {
  const environments = options.skillEnvironments;
  if (environments === false) return undefined;
  if (environments !== undefined && (typeof environments !== "object" || environments === null)) {
    throw new InvalidOptionsError({
      option: "skillEnvironments",
      value: environments,
      message: "must be false or an object",
    });
  }
  const root = environments?.root ?? defaultEnvironmentRoot();
  if (!path.isAbsolute(root))
    throw new InvalidOptionsError({
      option: "skillEnvironments.root",
      value: root,
      message: "must be an absolute path",
    });
  const approve = environments?.approve ?? "interrupt";
  if (!["interrupt", "always", "never"].includes(approve)) {
    throw new InvalidOptionsError({
      option: "skillEnvironments.approve",
      value: approve,
      message: "must be 'interrupt', 'always' or 'never'",
    });
  }
  const pipArgs = stringList("skillEnvironments.pipArgs", environments?.pipArgs) ?? [];
  const installTimeoutMs = bounded(
    "skillEnvironments.installTimeoutMs",
    environments?.installTimeoutMs,
    600_000,
    MAX_TIMER_MS,
  );
  return { root, approve, pipArgs, installTimeoutMs };
}

function artifactOptions(options: ShellHookOptions): ShellRuntime["artifacts"] {
  const artifacts = options.artifacts;
  if (artifacts === false) return false;
  if (artifacts !== undefined && (typeof artifacts !== "object" || artifacts === null)) {
    throw new InvalidOptionsError({
      option: "artifacts",
      value: artifacts,
      message: "must be false or { store?, maxBytes? }",
    });
  }
  const maxBytes = bounded("artifacts.maxBytes", artifacts?.maxBytes, 8 * 1024 * 1024, 256 * 1024 * 1024);
  const store = artifacts?.store;
  const quota = artifacts?.quota ?? {};
  artifactStoreFromBaseStore(new InMemoryStore(), quota); // checks the quota's numbers now, naming the bad one
  if (store === undefined) return { maxBytes, quota };
  if (typeof (store as ArtifactStore).save === "function" && typeof (store as ArtifactStore).load === "function")
    return { store: store as ArtifactStore, maxBytes, quota };
  if (typeof (store as BaseStore).get === "function" && typeof (store as BaseStore).put === "function")
    return { store: artifactStoreFromBaseStore(store as BaseStore, quota), maxBytes, quota };
  throw new InvalidOptionsError({
    option: "artifacts.store",
    value: store,
    message: "must be a LangGraph BaseStore or an ArtifactStore",
  });
}

function environmentOptions(options: ShellHookOptions): {
  allow: ReadonlySet<string>;
  set: Readonly<Record<string, string>>;
} {
  const environment = options.environment ?? {};
  const allow = stringList("environment.allow", environment.allow) ?? DEFAULT_ALLOWED_ENV_NAMES;
  for (const name of allow) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || RESERVED_ENV_NAMES.has(name) || name.startsWith("SKILLGRAPH_")) {
      throw new InvalidOptionsError({
        option: "environment.allow",
        value: name,
        message: `'${name}' is not a valid name or is set by the runtime itself`,
      });
    }
  }
  const fixed = environment.set ?? {};
  if (typeof fixed !== "object" || fixed === null)
    throw new InvalidOptionsError({ option: "environment.set", value: fixed, message: "must be an object of strings" });
  for (const [name, value] of Object.entries(fixed)) {
    if (
      !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ||
      RESERVED_ENV_NAMES.has(name) ||
      name.startsWith("SKILLGRAPH_") ||
      typeof value !== "string" ||
      value.includes("\0")
    ) {
      throw new InvalidOptionsError({
        option: `environment.set.${name}`,
        value,
        message: "must be a valid, non-reserved name with a string value",
      });
    }
  }
  return { allow: new Set(allow), set: { ...fixed } };
}

function hostInputsOption(value: unknown): ReadonlyMap<string, string> {
  if (value === undefined) return new Map();
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidOptionsError({ option: "hostInputs", value, message: "must be an object of name -> folder" });
  const folders = new Map<string, string>();
  for (const [name, folder] of Object.entries(value)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) || typeof folder !== "string" || !path.isAbsolute(folder))
      throw new InvalidOptionsError({
        option: `hostInputs.${name}`,
        value: folder,
        message: "must map a plain name (letters, digits, '.', '_', '-') to an absolute folder",
      });
    folders.set(name, folder);
  }
  return folders;
}

function rules(option: string, texts: readonly string[]): CommandRule[] {
  return texts.map((text, index) => {
    if (typeof text !== "string")
      throw new InvalidOptionsError({ option: `${option}[${index}]`, value: text, message: "must be a string" });
    const rule = parseCommandRule(text, option, { prefix: option === "deny" });
    if (!rule || (rule.prefix.length === 0 && option === "deny")) {
      throw new InvalidOptionsError({
        option: `${option}[${index}]`,
        value: text,
        message: `'${text}' is not a plain command prefix such as 'git status' or 'python3'`,
      });
    }
    return rule;
  });
}

function chooseExecutor(options: ShellHookOptions, limits: CommandLimits | undefined): CommandExecutor {
  const choice = options.executor ?? "auto";
  if (typeof choice === "object") {
    if (typeof choice.run !== "function" || typeof choice.start !== "function" || typeof choice.view !== "function") {
      throw new InvalidOptionsError({
        option: "executor",
        value: choice,
        message: "must be 'auto', 'local', 'bubblewrap' or an object with run, start and view",
      });
    }
    return choice;
  }
  if (choice === "local") return createLocalExecutor({ limits });
  if (choice === "bubblewrap") return createBubblewrapExecutor({ ...options.bubblewrap, limits });
  if (choice === "auto") {
    if (process.platform !== "linux" || (options.bubblewrap?.bwrapPath ?? resolveExecutable("bwrap")) === undefined) {
      process.emitWarning(
        "@skillgraph/shell: executor 'auto' found no bubblewrap here and runs commands with the 'local' executor, which is NOT a sandbox (see docs/security.md)",
      );
      return createLocalExecutor({ limits });
    }
    try {
      return createBubblewrapExecutor({ ...options.bubblewrap, limits });
    } catch (error) {
      // bwrap is installed but cannot sandbox here (e.g. user namespaces disabled): say so, run locally
      process.emitWarning(
        `@skillgraph/shell: executor 'auto' falls back to 'local', which is NOT a sandbox: ${(error as Error).message}`,
      );
      return createLocalExecutor({ limits });
    }
  }
  throw new InvalidOptionsError({
    option: "executor",
    value: choice,
    message: "must be 'auto', 'local', 'bubblewrap' or a CommandExecutor",
  });
}

/** Checks the options once and fills in defaults (throws InvalidOptionsError naming the option). */
export function createShellRuntime(options: ShellHookOptions): ShellRuntime {
  if (!options || typeof options.skills?.get !== "function") {
    throw new InvalidOptionsError({
      option: "skills",
      value: options?.skills,
      message: "must have a get(name) method (a SkillCatalog or SkillRegistry)",
    });
  }
  if (options.shellSyntax !== undefined && options.shellSyntax !== "full" && options.shellSyntax !== "simple") {
    throw new InvalidOptionsError({
      option: "shellSyntax",
      value: options.shellSyntax,
      message: "must be 'full' or 'simple'",
    });
  }
  if ("allowShellSyntax" in options) {
    throw new InvalidOptionsError({
      option: "allowShellSyntax",
      value: (options as { allowShellSyntax?: unknown }).allowShellSyntax,
      message:
        "was removed: full shell syntax is the default and every command of a line is checked (shellSyntax: 'simple' restricts it)",
    });
  }
  const fixedPath = options.fixedPath ?? DEFAULT_FIXED_PATH;
  if (fixedPath.split(":").some((dir) => !path.isAbsolute(dir))) {
    throw new InvalidOptionsError({
      option: "fixedPath",
      value: fixedPath,
      message: "every entry must be an absolute folder",
    });
  }
  if (options.workspaceRoot !== undefined && !path.isAbsolute(options.workspaceRoot)) {
    throw new InvalidOptionsError({
      option: "workspaceRoot",
      value: options.workspaceRoot,
      message: "must be an absolute path",
    });
  }
  const timeoutMs = bounded("timeoutMs", options.timeoutMs, 300_000, MAX_TIMER_MS);
  const maxTimeoutMs = bounded("maxTimeoutMs", options.maxTimeoutMs, Math.max(600_000, timeoutMs), MAX_TIMER_MS);
  if (maxTimeoutMs < timeoutMs)
    throw new InvalidOptionsError({
      option: "maxTimeoutMs",
      value: maxTimeoutMs,
      message: `must be at least timeoutMs (${timeoutMs})`,
    });
  const approvalRules = compileApprovalRules(options.requireApproval);
  const allow = stringList("allow", options.allow);
  const deny = stringList("deny", options.deny);
  const readablePaths = stringList("readablePaths", options.readablePaths);
  for (const readable of readablePaths ?? []) {
    if (!path.isAbsolute(readable))
      throw new InvalidOptionsError({
        option: "readablePaths",
        value: readable,
        message: "every entry must be an absolute path",
      });
  }
  const environment = environmentOptions(options);
  const always =
    options.alwaysVisible === true
      ? allToolNames
      : options.alwaysVisible === false || options.alwaysVisible === undefined
        ? []
        : options.alwaysVisible;
  for (const name of always) {
    if (!allToolNames.includes(name))
      throw new InvalidOptionsError({
        option: "alwaysVisible",
        value: name,
        message: `unknown tool '${name}' (one of ${allToolNames.join(", ")})`,
      });
  }
  const sessions = options.sessions === false ? undefined : (options.sessions ?? {});
  const limits = resolveLimits(options.limits);
  const executor = chooseExecutor(options, limits);
  return {
    catalog: options.skills,
    executor,
    policy: {
      allow: allow === undefined ? undefined : rules("allow", allow),
      deny: rules("deny", deny ?? DEFAULT_DENIED_PROGRAMS),
      fixedPath,
      confinePaths: options.confinePaths ?? true,
      readablePaths: readablePaths ?? [
        "/dev/null",
        "/dev/zero",
        "/dev/urandom",
        "/dev/random",
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
      ],
      syntax: options.shellSyntax ?? "full",
      opaqueNeedsApproval: approvalRules.length > 0,
      fixedEnvNames: new Set(Object.keys(environment.set)),
      envAllow: environment.allow,
    },
    workspaces: new ThreadWorkspaces(
      options.workspaceRoot,
      options.workspaceMaxAgeMs === undefined
        ? {}
        : { maxAgeMs: integerOption("workspaceMaxAgeMs", options.workspaceMaxAgeMs, { max: Number.MAX_SAFE_INTEGER }) },
    ),
    sessions: new SessionStore(),
    sessionsEnabled: sessions !== undefined,
    maxSessionsPerThread: bounded("sessions.maxPerThread", sessions?.maxPerThread, 4, 64),
    maxUnreadBytes: bounded("sessions.maxUnreadBytes", sessions?.maxUnreadBytes, 65_536, 16 * 1024 ** 2),
    approvalRules,
    requireSkillRead: options.requireSkillRead ?? true,
    checkRequirements: options.checkRequirements ?? true,
    timeoutMs,
    maxTimeoutMs,
    killGraceMs: bounded("killGraceMs", options.killGraceMs, 2_000, 60_000),
    maxOutputBytes: bounded("maxOutputBytes", options.maxOutputBytes, 16_384, 16 * 1024 ** 2),
    killAfterOutputBytes: bounded(
      "killAfterOutputBytes",
      options.killAfterOutputBytes,
      64 * 1024 * 1024,
      MAX_BUFFER_BYTES,
    ),
    outputFiles: {
      maxFiles: bounded("outputFiles.maxFiles", options.outputFiles?.maxFiles, 20, 1_000),
      maxFileBytes: bounded("outputFiles.maxFileBytes", options.outputFiles?.maxFileBytes, 1_048_576, MAX_BUFFER_BYTES),
      inlineTextBytes: bounded(
        "outputFiles.inlineTextBytes",
        options.outputFiles?.inlineTextBytes,
        16_384,
        16 * 1024 ** 2,
      ),
    },
    alwaysVisible: new Set(always),
    removeWorkspacesOnDispose: options.removeWorkspacesOnDispose ?? false,
    loadedSkills: options.loadedSkills,
    agentId: options.agentId ?? "default",
    fixedEnv: environment.set,
    limits,
    artifacts: artifactOptions(options),
    stageAttachments: options.stageAttachments ?? true,
    skillEnvironments: environmentsOptions(options),
    hostInputs: hostInputsOption(options.hostInputs),
    pinnedArtifacts: new Map(),
    stagedAttachments: new Map(),
    seenLoaded: new Map(),
  };
}
