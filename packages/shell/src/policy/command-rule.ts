import { parseShellWords } from "../command/parse-shell-words.js";

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
export function parseCommandRule(text: string, source: string, options: { prefix?: boolean } = {}): CommandRule | undefined {
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

/** Whether `argv` (argv[0] already reduced to a program name) matches the rule. */
export function matchesCommandRule(rule: CommandRule, argv: readonly string[]): boolean {
  if (rule.prefix.length > argv.length) return false;
  if (rule.exact && rule.prefix.length !== argv.length) return false;
  return rule.prefix.every((part, index) => (index === 0 ? programName(part) === argv[0] : part === argv[index]));
}

/** The program name of an argv[0]: its basename. */
export function programName(executable: string): string {
  const slash = executable.lastIndexOf("/");
  return slash === -1 ? executable : executable.slice(slash + 1);
}
