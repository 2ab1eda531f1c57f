/** Why a command line was refused by the strict parser. */
export type ShellWordsRefusal =
  | "empty-command"
  | "nul-byte"
  | "newline"
  | "shell-operator"
  | "redirection"
  | "command-substitution"
  | "unknown-variable"
  | "glob"
  | "unterminated-quote";

/** Result of {@link parseShellWords}: the argv, or a refusal with a reason code and a message. */
export type ShellWordsResult = { ok: true; argv: string[] } | { ok: false; reason: ShellWordsRefusal; message: string };

/** Options of {@link parseShellWords}. */
export interface ParseShellWordsOptions {
  /** Variables that `$NAME` / `${NAME}` expand to (outside single quotes). Any other `$` use is refused. */
  variables?: Readonly<Record<string, string>>;
}

const operators: Record<string, ShellWordsRefusal> = {
  ";": "shell-operator",
  "|": "shell-operator",
  "&": "shell-operator",
  "(": "shell-operator",
  ")": "shell-operator",
  "<": "redirection",
  ">": "redirection",
};

/**
 * Splits a command line into argv the way a POSIX shell would for simple commands, refusing everything that is not a
 * plain command: `;`, `|`, `&`, `(`, `)`, redirections, backticks, `$(...)`, unknown `$` expansions, unquoted `*`,
 * newlines, NUL bytes and a leading `#`. Quotes (`'...'`, `"..."`) and backslash escapes work as in sh.
 * @param command the command line
 * @param options variables `$NAME` may expand to
 * @example parseShellWords(`python3 "$SKILL_DIR/scripts/a b.py" --x='1 2'`, { variables: { SKILL_DIR: "/skill" } })
 */
export function parseShellWords(command: string, options: ParseShellWordsOptions = {}): ShellWordsResult {
  const variables = options.variables ?? {};
  const refuse = (reason: ShellWordsRefusal, message: string): ShellWordsResult => ({ ok: false, reason, message });
  if (command.includes("\0")) return refuse("nul-byte", "the command contains a NUL byte");
  if (/[\n\r]/.test(command)) return refuse("newline", "the command contains a newline; run one command per call");
  const argv: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  let index = 0;
  const expand = (): ShellWordsResult | undefined => {
    // command[index] === "$"
    const rest = command.slice(index + 1);
    if (rest.startsWith("(")) return refuse("command-substitution", "`$(...)` command substitution is not allowed");
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    const bare = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    const name = braced?.[1] ?? bare?.[0];
    if (name === undefined)
      return refuse(
        "unknown-variable",
        `'$${rest.slice(0, 2)}' is not allowed; only ${describeVariables(variables)} expand`,
      );
    const value = variables[name];
    if (value === undefined)
      return refuse(
        "unknown-variable",
        `variable '$${name}' is not available; only ${describeVariables(variables)} expand`,
      );
    word += value;
    inWord = true;
    index += 1 + (braced ? braced[0].length : name.length);
    return undefined;
  };
  while (index < command.length) {
    const char = command[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      index += 1;
      continue;
    }
    if (char === "`") return refuse("command-substitution", "backtick command substitution is not allowed");
    if (char === "$") {
      const refusal = expand();
      if (refusal) return refusal;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && index + 1 < command.length && '"\\$`'.includes(command[index + 1] as string)) {
        word += command[index + 1];
        index += 1;
      } else word += char;
      index += 1;
      continue;
    }
    if (char === " " || char === "\t") {
      if (inWord) argv.push(word);
      word = "";
      inWord = false;
      index += 1;
      continue;
    }
    const operator = operators[char];
    if (operator)
      return refuse(operator, `'${char}' is a shell operator; commands run without a shell, one program per call`);
    if (char === "#" && !inWord)
      return refuse("shell-operator", "'#' starts a shell comment; quote it if it is an argument");
    if (char === "*") return refuse("glob", "unquoted '*' is not expanded (no shell); list the files or quote the '*'");
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
      index += 1;
      continue;
    }
    if (char === "\\") {
      if (index + 1 < command.length) word += command[index + 1];
      inWord = true;
      index += 2;
      continue;
    }
    word += char;
    inWord = true;
    index += 1;
  }
  if (quote) return refuse("unterminated-quote", `unterminated ${quote} quote`);
  if (inWord) argv.push(word);
  if (argv.length === 0) return refuse("empty-command", "the command is empty");
  return { ok: true, argv };
}

function describeVariables(variables: Readonly<Record<string, string>>): string {
  const names = Object.keys(variables);
  return names.length === 0 ? "no variables" : names.map((name) => `$${name}`).join(", ");
}
