import { skillCommandGrant, type SkillCommandGrant } from "./allowed-tools-rules.js";
import { matchesCommandRule } from "./command-rule.js";
import type { CommandSkill } from "./command-check-input.js";

const grantCache = new WeakMap<readonly string[], SkillCommandGrant>();

/** The skill's grant, cached per allowed-tools array (metadata objects are immutable snapshots). */
export function grantOf(skill: CommandSkill): SkillCommandGrant {
  let grant = grantCache.get(skill.allowedTools);
  if (!grant) {
    grant = skillCommandGrant(skill.name, skill.allowedTools);
    grantCache.set(skill.allowedTools, grant);
  }
  return grant;
}

/** Whether a skill's grant lets this program argv run (any command, or a matching `Bash(...)` rule). */
export function grantAllows(grant: SkillCommandGrant, programArgv: readonly string[]): boolean {
  return grant.anyCommand || grant.rules.some((rule) => matchesCommandRule(rule, programArgv));
}
