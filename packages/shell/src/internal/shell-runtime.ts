import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBubblewrapExecutor } from "../executor/bubblewrap-executor.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import { createLocalExecutor } from "../executor/local-executor.js";
import type { ApprovalRule, ShellHookOptions, ShellToolName } from "../hook/shell-hook-options.js";
import type { ShellSkillCatalog } from "../hook/skills-tool-hook.js";
import { DEFAULT_DENIED_PROGRAMS, type CommandPolicy } from "../policy/command-policy.js";
import { parseCommandRule, type CommandRule } from "../policy/command-rule.js";
import { DEFAULT_FIXED_PATH, resolveExecutable } from "../policy/resolve-executable.js";
import { SessionStore } from "../sessions/session-store.js";
import { ThreadWorkspaces } from "../workspace/thread-workspaces.js";
import { InvalidOptionsError } from "./core.js";

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
  approvalRules: readonly ApprovalRule[];
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
  /** Loaded skill names `authorize` last saw, per thread. */
  seenLoaded: Map<string, readonly string[]>;
}

const allToolNames: ShellToolName[] = ["run_skill_script", "shell", "shell_session_write", "shell_session_poll", "shell_session_kill"];

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new InvalidOptionsError({ option, value, message: "must be a positive number" });
  return value;
}

function rules(option: string, texts: readonly string[]): CommandRule[] {
  return texts.map((text, index) => {
    const rule = parseCommandRule(text, option);
    if (!rule || (rule.prefix.length === 0 && option === "deny")) {
      throw new InvalidOptionsError({ option: `${option}[${index}]`, value: text, message: `'${text}' is not a plain command prefix such as 'git status' or 'python3'` });
    }
    return rule;
  });
}

function chooseExecutor(options: ShellHookOptions): CommandExecutor {
  const choice = options.executor ?? "auto";
  if (typeof choice === "object") {
    if (typeof choice.run !== "function" || typeof choice.start !== "function" || typeof choice.view !== "function") {
      throw new InvalidOptionsError({ option: "executor", value: choice, message: "must be 'auto', 'local', 'bubblewrap' or an object with run, start and view" });
    }
    return choice;
  }
  if (choice === "local") return createLocalExecutor();
  if (choice === "bubblewrap") return createBubblewrapExecutor(options.bubblewrap);
  if (choice === "auto") {
    if (process.platform !== "linux" || (options.bubblewrap?.bwrapPath ?? resolveExecutable("bwrap")) === undefined) return createLocalExecutor();
    try {
      return createBubblewrapExecutor(options.bubblewrap);
    } catch (error) {
      // bwrap is installed but cannot sandbox here (e.g. user namespaces disabled): say so once, run locally
      process.emitWarning(`@skillgraph/shell: executor 'auto' falls back to 'local': ${(error as Error).message}`);
      return createLocalExecutor();
    }
  }
  throw new InvalidOptionsError({ option: "executor", value: choice, message: "must be 'auto', 'local', 'bubblewrap' or a CommandExecutor" });
}

/** Checks the options once and fills in defaults (throws InvalidOptionsError naming the option). */
export function createShellRuntime(options: ShellHookOptions): ShellRuntime {
  if (!options || typeof options.catalog?.get !== "function") {
    throw new InvalidOptionsError({ option: "catalog", value: options?.catalog, message: "must have a get(name) method (a SkillCatalog or SkillRegistry)" });
  }
  if (options.allowShellSyntax && (options.allow !== undefined || options.deny !== undefined)) {
    throw new InvalidOptionsError({ option: "allowShellSyntax", value: true, message: "cannot be combined with 'allow' or 'deny': lists are only enforceable on commands run without a shell" });
  }
  const fixedPath = options.fixedPath ?? DEFAULT_FIXED_PATH;
  if (fixedPath.split(":").some((dir) => !path.isAbsolute(dir))) {
    throw new InvalidOptionsError({ option: "fixedPath", value: fixedPath, message: "every entry must be an absolute folder" });
  }
  if (options.workspaceRoot !== undefined && !path.isAbsolute(options.workspaceRoot)) {
    throw new InvalidOptionsError({ option: "workspaceRoot", value: options.workspaceRoot, message: "must be an absolute path" });
  }
  const timeoutMs = positive("timeoutMs", options.timeoutMs, 300_000);
  const maxTimeoutMs = positive("maxTimeoutMs", options.maxTimeoutMs, Math.max(600_000, timeoutMs));
  if (maxTimeoutMs < timeoutMs) throw new InvalidOptionsError({ option: "maxTimeoutMs", value: maxTimeoutMs, message: `must be at least timeoutMs (${timeoutMs})` });
  for (const [index, rule] of (options.requireApproval ?? []).entries()) {
    if (typeof rule === "string") rules(`requireApproval[${index}]`, [rule]);
    else if (!(rule instanceof RegExp) && typeof rule !== "function") {
      throw new InvalidOptionsError({ option: `requireApproval[${index}]`, value: rule, message: "must be a command prefix string, a RegExp or a function" });
    }
  }
  const always = options.alwaysVisible === true ? allToolNames : options.alwaysVisible === false || options.alwaysVisible === undefined ? [] : options.alwaysVisible;
  for (const name of always) {
    if (!allToolNames.includes(name)) throw new InvalidOptionsError({ option: "alwaysVisible", value: name, message: `unknown tool '${name}' (one of ${allToolNames.join(", ")})` });
  }
  const sessions = options.sessions === false ? undefined : (options.sessions ?? {});
  const executor = chooseExecutor(options);
  return {
    catalog: options.catalog,
    executor,
    policy: {
      allow: options.allow === undefined ? undefined : rules("allow", options.allow),
      deny: rules("deny", options.deny ?? DEFAULT_DENIED_PROGRAMS),
      fixedPath,
      confinePaths: options.confinePaths ?? true,
      readablePaths: options.readablePaths ?? ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/stdin", "/dev/stdout", "/dev/stderr"],
      allowShellSyntax: options.allowShellSyntax ?? false,
    },
    workspaces: new ThreadWorkspaces(options.workspaceRoot ?? mkdtempSync(path.join(os.tmpdir(), "skillgraph-shell-"))),
    sessions: new SessionStore(),
    sessionsEnabled: sessions !== undefined,
    maxSessionsPerThread: positive("sessions.maxPerThread", sessions?.maxPerThread, 4),
    maxUnreadBytes: positive("sessions.maxUnreadBytes", sessions?.maxUnreadBytes, 65_536),
    approvalRules: options.requireApproval ?? [],
    requireSkillRead: options.requireSkillRead ?? true,
    checkRequirements: options.checkRequirements ?? true,
    timeoutMs,
    maxTimeoutMs,
    killGraceMs: positive("killGraceMs", options.killGraceMs, 2_000),
    maxOutputBytes: positive("maxOutputBytes", options.maxOutputBytes, 16_384),
    killAfterOutputBytes: positive("killAfterOutputBytes", options.killAfterOutputBytes, 64 * 1024 * 1024),
    outputFiles: {
      maxFiles: positive("outputFiles.maxFiles", options.outputFiles?.maxFiles, 20),
      maxFileBytes: positive("outputFiles.maxFileBytes", options.outputFiles?.maxFileBytes, 1_048_576),
      inlineTextBytes: positive("outputFiles.inlineTextBytes", options.outputFiles?.inlineTextBytes, 16_384),
    },
    alwaysVisible: new Set(always),
    removeWorkspacesOnDispose: options.removeWorkspacesOnDispose ?? false,
    loadedSkills: options.loadedSkills,
    agentId: options.agentId ?? "default",
    seenLoaded: new Map(),
  };
}
