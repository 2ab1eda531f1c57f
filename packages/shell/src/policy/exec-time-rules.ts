// The command rules decided where programs start (bubblewrap with exec enforcement): every start of a program that
// has argument-level rules (`git` when `git push` is denied or needs approval) reaches the runtime with its real argv,
// whoever starts it, and is decided here. Design: docs/design/exec-enforcement.md.
import { needsApproval, type CompiledApprovalRule } from "./approval-rules.js";
import type { ApprovalCandidate } from "./approval-types.js";
import { commandLayers } from "./command-layers.js";
import type { CommandPolicy } from "./command-policy.js";
import { matchesCommandRule, programName } from "./command-rules.js";
import { DYNAMIC_WORD, isDynamicWord } from "./dynamic-word.js";
import { admitsStart, type ExecAllowList } from "./exec-time-allow.js";
import { withGitAliasesOpaque, withoutGitConfigOptions } from "./git-subcommands.js";

/** One program start inside the sandbox, as the gate reported it. */
export interface ProgramStart {
  /** The file the kernel ran, as a sandbox path (never argv[0]). */
  program: string;
  /** The program names that file has (a rule's first word is matched against these). */
  names: readonly string[];
  /** argv as the program received it (argv[0] as the caller chose it). */
  argv: readonly string[];
  /** Working folder, as a sandbox path. */
  cwd: string;
}

/** What happens to one program start. */
export type ProgramStartDecision =
  | { run: true }
  | {
      run: false;
      /** Shown to the command on stderr, and to the model in the call's result. */
      reason: string;
      /** True when an approval rule (not a deny rule) stopped it. */
      needsApproval: boolean;
    };

/** The rules an executor enforces at exec time for one call. */
export interface ExecTimeRules {
  /** Program names whose every start is decided by `decide` (one-word deny rules are stubbed instead). */
  programs: readonly string[];
  /**
   * The allow list, when there is one: only files of `allow.wholly`, of the gated `programs` and of the shells may
   * start at all (Landlock), and `decide` refuses a gated start it does not admit.
   */
  allow?: ExecAllowList;
  /** Decides one start. Must not throw. */
  decide(start: ProgramStart): ProgramStartDecision;
}

/** A program start, once refused, as the call's result reports it. */
export interface RefusedStart {
  /** argv as the program was started (argv[0] as the caller chose it). */
  argv: string[];
  /** Why it was refused (also printed to the command's stderr). */
  reason: string;
  /** True when an approval rule (not a deny rule) stopped it. */
  needsApproval: boolean;
}

/** Programs the runtime itself starts every command with: gating them would gate every line. */
export const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "dash", "script"]);

/**
 * The program names with argument-level rules: the first word of every deny rule of two or more words and of every
 * prefix approval rule. Pattern and function approval rules name no program and stay with the planner.
 */
export function gatedProgramNames(
  policy: Pick<CommandPolicy, "deny">,
  approvalRules: readonly CompiledApprovalRule[],
): string[] {
  const wholly = new Set(
    policy.deny.filter((rule) => rule.prefix.length === 1).map((rule) => programName(rule.prefix[0] as string)),
  );
  const names = new Set<string>();
  for (const rule of policy.deny) if (rule.prefix.length > 1) names.add(programName(rule.prefix[0] as string));
  for (const rule of approvalRules)
    if (rule.kind === "prefix" && rule.rule.prefix.length > 0) names.add(programName(rule.rule.prefix[0] as string));
  return [...names].filter((name) => !wholly.has(name) && !SHELLS.has(name) && !isDynamicWord(name)).sort();
}

/**
 * argv with argv[0] replaced by the program name the start is judged as: a multi-call program started as `git-push`
 * (`/usr/lib/git-core/git-push` is git) is judged as `git push`; any other argv[0] counts as the file's own name.
 */
export function judgedArgv(start: Pick<ProgramStart, "names" | "argv">): string[] {
  const typed = programName(start.argv[0] ?? "");
  const rest = start.argv.slice(1);
  if (start.names.includes(typed)) return [typed, ...rest];
  for (const name of start.names)
    if (typed.startsWith(`${name}-`) && typed.length > name.length + 1)
      return [name, typed.slice(name.length + 1), ...rest];
  return [start.names[0] ?? typed, ...rest];
}

/** Whether `argv` is one of the approved commands: same length, each word equal or a word the approver saw as dynamic. */
function isApproved(layers: readonly (readonly string[])[], approved: readonly (readonly string[])[]): boolean {
  return layers.some((layer) =>
    approved.some(
      (ok) => ok.length === layer.length && ok.every((word, at) => isDynamicWord(word) || word === layer[at]),
    ),
  );
}

/** Options of {@link execTimeRules}. */
export interface ExecTimeRulesOptions {
  policy: Pick<CommandPolicy, "deny">;
  approvalRules: readonly CompiledApprovalRule[];
  /** Commands the user approved for this call (each layer and command of the approved line). */
  approved: readonly (readonly string[])[];
  tool: ApprovalCandidate["tool"];
  skill?: string;
  /** The call's allow list (see exec-time-allow.ts); undefined when it admits every program. */
  allow?: ExecAllowList;
  /** Whether the call runs in a sandbox without network (what approval rules see as `sandboxed`). */
  sandboxed: boolean;
}

/** Decides each program start of one call with the deny and approval rules (see {@link ExecTimeRules}). */
export function execTimeRules(options: ExecTimeRulesOptions): ExecTimeRules {
  const { policy, approvalRules, approved, allow } = options;
  const gated = new Set(gatedProgramNames(policy, approvalRules));
  const stubbed = new Set(
    policy.deny.filter((rule) => rule.prefix.length === 1).map((rule) => programName(rule.prefix[0] as string)),
  );
  for (const name of allow?.byArguments ?? []) if (!SHELLS.has(name) && !stubbed.has(name)) gated.add(name);
  return {
    programs: [...gated].sort(),
    ...(allow ? { allow } : {}),
    decide(start) {
      const argv = judgedArgv(start);
      const shown = argv.join(" ");
      const unwrapped = commandLayers(argv[0] === "git" ? withoutGitConfigOptions(argv) : argv);
      const layers = (unwrapped.layers.length > 0 ? unwrapped.layers : [argv]).map(withGitAliasesOpaque);
      // what cannot be unwrapped (`git -c ...`, `env -S ...`) may run any command of the program: every rule on it matches
      if (!unwrapped.ok) layers.push([argv[0] as string, `${DYNAMIC_WORD}${unwrapped.message}`]);
      const denied = policy.deny.find((rule) => layers.some((layer) => matchesCommandRule(rule, layer, "broad")));
      if (denied)
        return {
          run: false,
          needsApproval: false,
          reason: `'${shown}' is denied by the rule '${denied.prefix.join(" ")}' (${denied.source})`,
        };
      if (allow && !admitsStart(allow, argv))
        return {
          run: false,
          needsApproval: false,
          reason: `'${shown}' is not in the allow list nor granted by a loaded skill's allowed-tools (judged where it starts)`,
        };
      const candidate: ApprovalCandidate = {
        tool: options.tool,
        ...(options.skill !== undefined ? { skill: options.skill } : {}),
        argv,
        command: shown,
        layers,
        commands: [{ argv, typedLayers: [argv], program: start.program, kind: "program" }],
        cwd: start.cwd,
        opaque: [],
        key: "",
        sandboxed: options.sandboxed,
      };
      let asks: boolean;
      try {
        asks = needsApproval(approvalRules, candidate);
      } catch {
        asks = true;
      }
      if (!asks || isApproved([argv, ...layers], approved)) return { run: true };
      return {
        run: false,
        needsApproval: true,
        reason: `'${shown}' needs approval and was not part of what was approved for this call (a program started by another program is judged where it starts); to have it asked about, run it as a command of its own`,
      };
    },
  };
}
