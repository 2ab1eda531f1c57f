import {
  createBubblewrapExecutor,
  createShellHook,
  skillCommandGrant,
  type ApprovalCandidate,
  type ShellHook,
} from "@skillgraph/shell";
import { SkillgraphError, type SkillCatalog } from "@skillgraph/core";

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
 * The shell hook for `skillgraph chat`: the local executor (NOT a sandbox) when `unsafeLocal` asks for it, else
 * bubblewrap when it works here, else no scripts. Commands not pre-approved by their skill ask through `interrupt()`.
 * With `alwaysOn` the `shell` tool is offered on every turn, whatever skills are loaded.
 */
export function createChatShell(
  catalog: SkillCatalog,
  options: { unsafeLocal?: boolean; off?: boolean; workspaceRoot?: string; alwaysOn?: boolean } = {},
): ChatShell {
  const alwaysApproved = new Set<string>();
  if (options.off)
    return {
      hook: undefined,
      executor: "off",
      notice: "note: skill scripts are off (the agent file's shell.executor is off)",
      alwaysApproved,
    };
  const requireApproval = [
    (candidate: ApprovalCandidate) => !alwaysApproved.has(candidate.key) && !preApprovedBySkill(candidate, catalog),
  ];
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
      notice: "scripts run in a bubblewrap sandbox",
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
