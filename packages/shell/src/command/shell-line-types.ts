// What the bash walker finds in one command line: every simple command it can run, redirections, and the pieces it
// cannot judge before running.

/**
 * One word of a command line after quote removal. `value` is set when the word's text is known before running
 * (literals, quotes, `$WORKSPACE`-style variables the runtime sets); otherwise `why` says what makes it unknown
 * (`$(...)`, a variable the line sets, a glob, brace expansion, `~`). A glob keeps the literal text before its first
 * pattern character in `globPrefix` (a word with an expansion, the folder written before it: `/proc/` of
 * `/proc/$$/cwd`), so the folder it searches can still be checked.
 */
export interface ShellWord {
  value?: string;
  why?: string;
  globPrefix?: string;
  /** A glob whose every piece is known: the pattern after quote removal (quoted pattern characters look like globs). */
  pattern?: string;
  /** The word as typed. */
  text: string;
  /** Offsets of the typed word in the line (UTF-16 code units). */
  start: number;
  end: number;
}

/** `NAME=value` before a command (its environment) or alone (a shell variable). */
export interface ShellAssignment {
  name: string;
  value?: ShellWord;
  text: string;
}

/** A redirection: `> out/x.txt`, `2>/dev/null`, `< in/data.csv`, `>&2`, a here-document or here-string. */
export interface ShellRedirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<`, ... */
  operator: string;
  /** The file named, when the redirection names one (not `>&2`, not a here-document). */
  target?: ShellWord;
  text: string;
}

/** A simple command: words (program first), the assignments before it. `words` is empty for `NAME=value` alone. */
export interface SimpleShellCommand {
  words: ShellWord[];
  assignments: ShellAssignment[];
  /** The command as typed, for messages. */
  text: string;
}

/** A piece of the line that cannot be judged before running (`opaque`) or is not understood (`unsupported`). */
export interface ShellProblem {
  kind: "syntax" | "unsupported" | "opaque";
  /** The piece of the line, as typed. */
  piece: string;
  message: string;
}

/** Everything one command line can run, found by walking its syntax tree once. */
export interface ShellLine {
  /** The line as bash reads it (backslash-newline pairs joined, see join-continuations.ts): word offsets point here. */
  text: string;
  commands: SimpleShellCommand[];
  redirects: ShellRedirect[];
  /** Functions the line defines (their bodies are among `commands`). */
  functions: ReadonlySet<string>;
  problems: ShellProblem[];
  /** Every variable the line assigns (`NAME=value`, `for NAME in`, `read NAME`, `((NAME++))`, `${NAME:=x}`, ...). */
  assigned: ReadonlySet<string>;
  /** True when the line is one simple command without any shell syntax around it. */
  simple: boolean;
}
