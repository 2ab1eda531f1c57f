import { parseCommandRule, type CommandRule } from "./command-rule.js";

/** What a skill's `allowed-tools` says about commands. */
export interface SkillCommandGrant {
  /** Command rules from `Bash(...)` entries. */
  rules: CommandRule[];
  /** True when a bare `Bash` (or `Bash(*)`) entry allows any command. */
  anyCommand: boolean;
  /** True when the skill names the shell at all (`Bash`, `Bash(...)`, `shell`, `run_skill_script`). */
  mentionsShell: boolean;
}

/**
 * Reads Claude Code style `allowed-tools` entries: `Bash(git status:*)` allows `git status ...`, `Bash(python3:*)` allows
 * `python3 ...`, a bare `Bash` allows any command. Other entries (Read, Write, MCP tools) are ignored.
 * @param skillName the skill, for rule sources in messages
 * @param allowedTools the skill's `allowed-tools` entries
 * @example skillCommandGrant("pdf", ["Read", "Bash(git status:*)"]).rules[0]?.prefix // ["git", "status"]
 */
export function skillCommandGrant(skillName: string, allowedTools: readonly string[]): SkillCommandGrant {
  const grant: SkillCommandGrant = { rules: [], anyCommand: false, mentionsShell: false };
  for (const raw of allowedTools) {
    const entry = raw.trim().replace(/,$/, "");
    if (entry === "shell" || entry === "run_skill_script") {
      grant.mentionsShell = true;
      continue;
    }
    const match = /^Bash(?:\((.*)\))?$/.exec(entry);
    if (!match) continue;
    grant.mentionsShell = true;
    const inner = match[1];
    if (inner === undefined || inner.trim() === "*" || inner.trim() === "") {
      grant.anyCommand = true;
      continue;
    }
    const rule = parseCommandRule(inner, `skill ${skillName}: ${entry}`);
    if (rule) grant.rules.push(rule);
  }
  return grant;
}
