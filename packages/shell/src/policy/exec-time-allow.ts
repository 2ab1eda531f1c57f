// The allow list decided where programs start (bubblewrap with exec enforcement): the application's `allow` rules and
// the `Bash(...)` grants of the call's skill and the loaded skills, read as which programs may start at all (admitted
// wholly, or only with some arguments). Design: docs/design/exec-enforcement.md.
import type { CommandSkill } from "./command-check-types.js";
import type { CommandPolicy } from "./command-policy.js";
import { grantOf, matchesCommandRule, programName, type CommandRule } from "./command-rules.js";
import { isDynamicWord } from "./dynamic-word.js";
import { withoutGitConfigOptions } from "./git-subcommands.js";

/** What the allow list lets start, as exec-time enforcement reads it. */
export interface ExecAllowList {
  /** Programs every start of which is admitted (a one-word rule or grant: `python3`, `Bash(jq:*)`). */
  wholly: readonly string[];
  /** Programs admitted only with some arguments (`git status:*`): every start of them is judged on its real argv. */
  byArguments: readonly string[];
  /** Every allow rule and grant rule, for judging those starts. */
  rules: readonly CommandRule[];
}

/**
 * The allow list of one call, or undefined when it admits every program (no `allow` list, a rule `*`, a bare `Bash`
 * grant): then nothing is enforced at exec time for it.
 * @param policy the application's rules (`allow` undefined = no allow list)
 * @param skills the call's skill and the loaded skills, whose `Bash(...)` grants extend the list
 */
export function execAllowList(
  policy: Pick<CommandPolicy, "allow">,
  skills: readonly CommandSkill[],
): ExecAllowList | undefined {
  if (!policy.allow) return undefined;
  const rules = [...policy.allow];
  for (const skill of skills) {
    const grant = grantOf(skill);
    if (grant.anyCommand) return undefined;
    rules.push(...grant.rules);
  }
  if (rules.some((rule) => rule.prefix.length === 0)) return undefined;
  const wholly = new Set<string>();
  const byArguments = new Set<string>();
  for (const rule of rules) {
    const first = rule.prefix[0] as string;
    if (isDynamicWord(first)) continue;
    const name = programName(first);
    if (rule.prefix.length === 1 && !rule.exact) wholly.add(name);
    else byArguments.add(name);
  }
  for (const name of wholly) byArguments.delete(name);
  return { wholly: [...wholly].sort(), byArguments: [...byArguments].sort(), rules };
}

/**
 * Whether a start the gate reported (argv[0] already the program name it is judged as) is admitted: its program
 * wholly, or its argv by a rule, read narrowly as the planner reads allow rules. For git the argv is judged also
 * without `-c`/`--config-env` options, since every program git's configuration starts is judged where it starts.
 */
export function admitsStart(allow: ExecAllowList, argv: readonly string[]): boolean {
  const name = argv[0] as string;
  if (allow.wholly.includes(name)) return true;
  const forms = name === "git" ? [argv, withoutGitConfigOptions(argv)] : [argv];
  return forms.some((form) => allow.rules.some((rule) => matchesCommandRule(rule, form, "narrow")));
}
