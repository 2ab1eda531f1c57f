import {
  createBubblewrapExecutor,
  createShellHook,
  skillCommandGrant,
  type ApprovalCandidate,
  type ShellHook,
} from "@skillgraph/shell";
import { SkillgraphError, type SkillCatalog } from "@skillgraph/core";

/**
 * Which commands ask: `sandboxed` only lines that leave the sandbox (network, a host file, an opaque piece, any line
 * under the local executor) and are not pre-approved by their skill; `ask` every command its skill does not pre-approve.
 */
export type ChatApprovalPolicy = "sandboxed" | "ask";

/** The shell of a chat session: the hook (when scripts can run), why not otherwise, and the session's "always" answers. */
export interface ChatShell {
  hook: ShellHook | undefined;
  /** `bubblewrap`, `local` (unsafe, by --unsafe-local) or `off`. */
  executor: "bubblewrap" | "local" | "off";
  /** A line for stderr saying how scripts run (or why they do not). */
  notice: string;
  /** What the user answered "always" for in this session: approval keys (tool, skill, files run, line, cwd). */
  alwaysApproved: Set<string>;
}

/**
 * Whether a command line is pre-approved by its skill's `allowed-tools` (the spec's meaning), judged on every command
 * of the line as typed: a skill that names the shell (`Bash`, `Bash(...)`, `run_skill_script`) may run its own
 * `scripts/`; `Bash` alone allows any command of the skill; `Bash(git status:*)` style rules allow what they match,
 * word for word as typed (`git -c x=y status` is not `git status`). Bash builtins the checker judged and functions the
 * line defines need no grant. A line with a piece that cannot be judged before running always asks.
 */
export function preApprovedBySkill(candidate: ApprovalCandidate, catalog: SkillCatalog): boolean {
  if (candidate.tool !== "run_skill_script" || candidate.skill === undefined) return false;
  if (candidate.opaque.length > 0) return false;
  const skill = catalog.get(candidate.skill);
  if (!skill) return false;
  const grant = skillCommandGrant(skill.name, skill.allowedTools);
  if (!grant.mentionsShell) return false;
  if (grant.anyCommand) return true;
  const granted = (layer: readonly string[]) => grant.rules.some((rule) => matchesRule(rule, layer));
  return (
    candidate.commands.length > 0 &&
    candidate.commands.every((command) => {
      if (command.kind === "builtin" || command.kind === "function") return true;
      const layers = command.kind === "script" ? command.typedLayers.slice(1) : command.typedLayers;
      return layers.every(granted);
    })
  );
}

function matchesRule(rule: { prefix: string[]; exact: boolean }, argv: readonly string[]): boolean {
  if (rule.prefix.length > argv.length) return false;
  if (rule.exact && rule.prefix.length !== argv.length) return false;
  return rule.prefix.every((part, index) =>
    index === 0 ? part.slice(part.lastIndexOf("/") + 1) === argv[0] : part === argv[index],
  );
}

/**
 * The `requireApproval` rule of chat: a line asks unless the session answered "always" for it, its skill pre-approves
 * it, or (policy `sandboxed`) it stays in the sandbox ({@link ApprovalCandidate.sandboxed}).
 */
export function chatApprovalRule(
  catalog: SkillCatalog,
  alwaysApproved: ReadonlySet<string>,
  approval: ChatApprovalPolicy,
): (candidate: ApprovalCandidate) => boolean {
  return (candidate) =>
    !alwaysApproved.has(candidate.key) &&
    !(approval === "sandboxed" && candidate.sandboxed) &&
    !preApprovedBySkill(candidate, catalog);
}

/**
 * The shell hook for `skillgraph chat`: the local executor (NOT a sandbox) when `unsafeLocal` asks for it, else
 * bubblewrap when it works here, else no scripts. Commands ask through `interrupt()` as `approval` says (default
 * `sandboxed`: a line that stays in the sandbox runs unasked; under the local executor every line not pre-approved by
 * its skill asks). With `alwaysOn` the `shell` tool is offered on every turn, whatever skills are loaded.
 */
export function createChatShell(
  catalog: SkillCatalog,
  options: {
    unsafeLocal?: boolean;
    off?: boolean;
    workspaceRoot?: string;
    alwaysOn?: boolean;
    approval?: ChatApprovalPolicy;
  } = {},
): ChatShell {
  const alwaysApproved = new Set<string>();
  if (options.off)
    return {
      hook: undefined,
      executor: "off",
      notice: "note: skill scripts are off (the agent file's shell.executor is off)",
      alwaysApproved,
    };
  const sandboxedPolicy = (options.approval ?? "sandboxed") === "sandboxed";
  const requireApproval = [chatApprovalRule(catalog, alwaysApproved, options.approval ?? "sandboxed")];
  const common = {
    skills: catalog,
    requireApproval,
    // tama's always-present `bash`: the shell tool on every turn, for instruction skills that name no scripts.
    ...(options.alwaysOn ? { alwaysVisible: ["shell" as const] } : {}),
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
  };
  // asked for by name: the local executor even where bubblewrap works (the user chose to leave the sandbox)
  if (options.unsafeLocal)
    return {
      hook: createShellHook({ ...common, executor: "local" }),
      executor: "local",
      notice: "warning: scripts run on this machine WITHOUT a sandbox (--unsafe-local)",
      alwaysApproved,
    };
  try {
    const executor = createBubblewrapExecutor();
    return {
      hook: createShellHook({ ...common, executor }),
      executor: "bubblewrap",
      notice: sandboxedPolicy
        ? "scripts run in a bubblewrap sandbox (no network); commands that stay in it run without asking"
        : "scripts run in a bubblewrap sandbox",
      alwaysApproved,
    };
  } catch (error) {
    if (!SkillgraphError.isInstance(error) || error.code !== "bubblewrap-unavailable") throw error;
    const why = (error as Error).message.split("\n")[0];
    return {
      hook: undefined,
      executor: "off",
      notice: `note: skill scripts are off: ${why}. Install bubblewrap (bwrap), or pass --unsafe-local to run them unsandboxed.`,
      alwaysApproved,
    };
  }
}
