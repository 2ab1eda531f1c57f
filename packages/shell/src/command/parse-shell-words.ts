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

type Refused = Extract<ShellWordsResult, { ok: false }>;

function refuse(reason: ShellWordsRefusal, message: string): Refused {
  return { ok: false, reason, message };
}

/** Where a scan of one command line is: the words so far, the word being built, the open quote. */
interface Scan {
  command: string;
  variables: Readonly<Record<string, string>>;
  index: number;
  argv: string[];
  word: string;
  inWord: boolean;
  quote: "'" | '"' | undefined;
}

/** `$NAME` / `${NAME}` at the scan's position (command[index] === "$"): the variable's value, or a refusal. */
function expandVariable(scan: Scan): Refused | undefined {
  const rest = scan.command.slice(scan.index + 1);
  if (rest.startsWith("(")) return refuse("command-substitution", "`$(...)` command substitution is not allowed");
  const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
  const bare = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
  const name = braced?.[1] ?? bare?.[0];
  if (name === undefined)
    return refuse(
      "unknown-variable",
      `'$${rest.slice(0, 2)}' is not allowed; only ${describeVariables(scan.variables)} expand`,
    );
  const value = scan.variables[name];
  if (value === undefined)
    return refuse(
      "unknown-variable",
      `variable '$${name}' is not available; only ${describeVariables(scan.variables)} expand`,
    );
  scan.word += value;
  scan.inWord = true;
  scan.index += 1 + (braced ? braced[0].length : name.length);
  return undefined;
}

/** Inside '...': everything is literal up to the closing quote. */
function singleQuoted(scan: Scan, char: string): undefined {
  if (char === "'") scan.quote = undefined;
  else scan.word += char;
  scan.index += 1;
  return undefined;
}

/** Inside "...": a backslash escapes only `"`, `\`, `$` and a backtick. */
function doubleQuoted(scan: Scan, char: string): undefined {
  const next = scan.command[scan.index + 1];
  if (char === '"') scan.quote = undefined;
  else if (char === "\\" && next !== undefined && '"\\$`'.includes(next)) {
    scan.word += next;
    scan.index += 1;
  } else scan.word += char;
  scan.index += 1;
  return undefined;
}

/** Ends the word being built (at a blank). */
function endWord(scan: Scan): undefined {
  if (scan.inWord) scan.argv.push(scan.word);
  scan.word = "";
  scan.inWord = false;
  scan.index += 1;
  return undefined;
}

/** Why an unquoted character is refused (operators, a comment, a glob), if it is. */
function unquotedRefusal(scan: Scan, char: string): Refused | undefined {
  const operator = operators[char];
  if (operator)
    return refuse(operator, `'${char}' is a shell operator; commands run without a shell, one program per call`);
  if (char === "#" && !scan.inWord)
    return refuse("shell-operator", "'#' starts a shell comment; quote it if it is an argument");
  if (char === "*") return refuse("glob", "unquoted '*' is not expanded (no shell); list the files or quote the '*'");
  return undefined;
}

/** Outside quotes: blanks split words, quotes open, a backslash escapes the next character. */
function unquoted(scan: Scan, char: string): Refused | undefined {
  if (char === " " || char === "\t") return endWord(scan);
  const refused = unquotedRefusal(scan, char);
  if (refused) return refused;
  scan.inWord = true;
  if (char === "'" || char === '"') {
    scan.quote = char;
    scan.index += 1;
  } else if (char === "\\") {
    scan.word += scan.command[scan.index + 1] ?? "";
    scan.index += 2;
  } else {
    scan.word += char;
    scan.index += 1;
  }
  return undefined;
}

/** One step of the scan at its position. */
function step(scan: Scan, char: string): Refused | undefined {
  if (scan.quote === "'") return singleQuoted(scan, char);
  if (char === "`") return refuse("command-substitution", "backtick command substitution is not allowed");
  if (char === "$") return expandVariable(scan);
  if (scan.quote === '"') return doubleQuoted(scan, char);
  return unquoted(scan, char);
}

/**
 * Splits a command line into argv the way a POSIX shell would for simple commands, refusing everything that is not a
 * plain command: `;`, `|`, `&`, `(`, `)`, redirections, backticks, `$(...)`, unknown `$` expansions, unquoted `*`,
 * newlines, NUL bytes and a leading `#`. Quotes (`'...'`, `"..."`) and backslash escapes work as in sh.
 * @param command the command line
 * @param options variables `$NAME` may expand to
 * @example parseShellWords(`python3 "$SKILL_DIR/scripts/a b.py" --x='1 2'`, { variables: { SKILL_DIR: "/skill" } })
 */
export function parseShellWords(command: string, options: ParseShellWordsOptions = {}): ShellWordsResult {
  if (command.includes("\0")) return refuse("nul-byte", "the command contains a NUL byte");
  if (/[\n\r]/.test(command)) return refuse("newline", "the command contains a newline; run one command per call");
  const scan: Scan = {
    command,
    variables: options.variables ?? {},
    index: 0,
    argv: [],
    word: "",
    inWord: false,
    quote: undefined,
  };
  while (scan.index < command.length) {
    const refused = step(scan, command[scan.index] as string);
    if (refused) return refused;
  }
  if (scan.quote) return refuse("unterminated-quote", `unterminated ${scan.quote} quote`);
  if (scan.inWord) scan.argv.push(scan.word);
  if (scan.argv.length === 0) return refuse("empty-command", "the command is empty");
  return { ok: true, argv: scan.argv };
}

function describeVariables(variables: Readonly<Record<string, string>>): string {
  const names = Object.keys(variables);
  return names.length === 0 ? "no variables" : names.map((name) => `$${name}`).join(", ");
}
