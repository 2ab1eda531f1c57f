import type { CommandPolicy } from "../policy/command-policy.js";
import { programName } from "../policy/command-rules.js";

/**
 * The program names an executor that enforces at exec time must never start: the deny rules of one word (`sudo`,
 * `python3`). Rules with arguments (`git push`) are argv-level and stay with the planner's check.
 */
export function deniedProgramNames(policy: Pick<CommandPolicy, "deny">): string[] {
  const names = policy.deny
    .filter((rule) => rule.prefix.length === 1)
    .map((rule) => programName(rule.prefix[0] as string));
  return [...new Set(names)].sort();
}
