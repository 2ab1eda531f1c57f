// Command rules: allow/deny/grant prefixes, skills' `allowed-tools` grants, and whether a program argv is allowed.
import { parseShellWords } from "../command/parse-shell-words.js";
import { isDynamicWord } from "./dynamic-word.js";
import type { CommandSkill } from "./command-check-types.js";

/**
 * One allow/deny/approval rule over argv: `prefix` must equal the first argv entries (the first compared by program
 * name). `exact` rules match only when argv has no further arguments. An empty prefix matches every command.
 */
export interface CommandRule {
  prefix: string[];
  exact: boolean;
  /** Where the rule came from, for messages (e.g. `allow`, `skill pdf: Bash(git status:*)`). */
  source: string;
}

/**
 * Parses a rule written as a command prefix: `git status`, `python3`, `npm run test:*` (`:*` or a trailing ` *` = any
 * further arguments; a single word always means "this program with any arguments").
 * Allow rules (and skills' `Bash(...)` grants) follow Claude Code: several words without `:*` match exactly those words,
 * which is the narrower reading. Deny and approval rules (`prefix: true`) always match as prefixes, the broader
 * reading: `git push` also covers `git push origin main`.
 * @example parseCommandRule("git status:*", "allow") // { prefix: ["git", "status"], exact: false, source: "allow" }
 */
export function parseCommandRule(
  text: string,
  source: string,
  options: { prefix?: boolean } = {},
): CommandRule | undefined {
  let body = text.trim();
  let exact = true;
  if (body === "*" || body === "") return { prefix: [], exact: false, source };
  if (body.endsWith(":*")) {
    body = body.slice(0, -2);
    exact = false;
  } else if (body.endsWith(" *")) {
    body = body.slice(0, -2);
    exact = false;
  }
  const parsed = parseShellWords(body);
  if (!parsed.ok) return undefined;
  if (parsed.argv.length === 1 || options.prefix) exact = false;
  return { prefix: parsed.argv, exact, source };
}

/**
 * Whether `argv` (argv[0] already reduced to a program name) matches the rule. A word known only at run time (see
 * dynamic-word.ts) may expand to anything, even to several words: for deny and approval rules (`reading: "broad"`)
 * it matches, for allow rules and grants (`"narrow"`) it does not.
 */
export function matchesCommandRule(
  rule: CommandRule,
  argv: readonly string[],
  reading: "broad" | "narrow" = "broad",
): boolean {
  for (const [index, part] of rule.prefix.entries()) {
    const word = argv[index];
    if (word === undefined) return reading === "broad" && argv.some(isDynamicWord);
    if (isDynamicWord(word)) return reading === "broad";
    if (index === 0 ? programName(part) !== word : part !== word) return false;
  }
  if (!rule.exact) return true;
  if (argv.some(isDynamicWord)) return reading === "broad";
  return rule.prefix.length === argv.length;
}

/** The program name of an argv[0]: its basename. */
export function programName(executable: string): string {
  const slash = executable.lastIndexOf("/");
  return slash === -1 ? executable : executable.slice(slash + 1);
}

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
  return grant.anyCommand || grant.rules.some((rule) => matchesCommandRule(rule, programArgv, "narrow"));
}
