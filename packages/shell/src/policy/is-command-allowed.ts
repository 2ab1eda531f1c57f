import type { CommandCheckInput } from "./command-check-types.js";
import type { CommandPolicy } from "./command-policy.js";
import { grantAllows, grantOf, matchesCommandRule } from "./command-rules.js";

/** Whether the allow list (or, failing it, the running or a loaded skill's grant) lets this program argv run. */
export function isCommandAllowed(
  programArgv: readonly string[],
  input: CommandCheckInput,
  policy: CommandPolicy,
): boolean {
  if (!policy.allow) return true;
  if (policy.allow.some((rule) => matchesCommandRule(rule, programArgv, "narrow"))) return true;
  const skills = input.skill ? [input.skill, ...input.loadedSkills] : input.loadedSkills;
  return skills.some((skill) => grantAllows(grantOf(skill), programArgv));
}
