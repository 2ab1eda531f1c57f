// Backslash-newline the way bash's lexer reads it: removed before words are formed (outside single quotes, $'...',
// comments and here-document bodies with a quoted delimiter), so `$\<newline>(cmd)` is `$(cmd)`. The grammar keeps
// such pairs, so the checker parses (and the runtime runs) the joined line: both then read the same text.

/** The joined line, and the continuations that joined two pieces of one word (`ca\<newline>nary`). */
export interface JoinedLine {
  text: string;
  /** Text around each continuation that sat inside a word (the checker treats those as opaque). */
  inWord: string[];
}

type Context = "top" | "param" | "dquote" | "dparam" | "backtick";

interface Heredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

/** Characters each context acts on; any other character is copied as it is (global: searched from lastIndex). */
const SPECIAL: Record<Context, RegExp> = {
  top: /[\\'"$`#<()}\n]/g,
  param: /[\\'"$`#<()}\n]/g,
  dquote: /[\\"$`}]/g,
  dparam: /[\\"$`}]/g,
  backtick: /[\\`]/g,
};

/** Characters that end a word outside quotes. */
const BREAKS = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

class Joiner {
  /** The joined text, in pieces (joined once at the end: reading the end of a growing string would flatten it). */
  readonly out: string[] = [];
  /** The last character emitted, and the current line so far (for here-document delimiters). */
  last: string | undefined;
  currentLine = "";
  index = 0;
  readonly inWord: string[] = [];
  readonly stack: Context[] = ["top"];
  /** Open `(` per `$(`/`(` level of the top context, so `)` closes the right one. */
  readonly parens: number[] = [0];
  pending: Heredoc[] = [];

  constructor(readonly line: string) {}

  get context(): Context {
    return this.stack.at(-1) as Context;
  }

  /** Appends text to the output. */
  emit(text: string): void {
    if (text === "") return;
    this.out.push(text);
    this.last = text.at(-1);
    if (this.pending.length === 0) return; // the current line matters only in a here-document body
    const newline = text.lastIndexOf("\n");
    this.currentLine = newline === -1 ? this.currentLine + text : text.slice(newline + 1);
  }

  /** `\` at the index: a continuation is dropped, any other pair is copied whole. */
  backslash(): void {
    const next = this.line[this.index + 1];
    if (next === "\n") {
      const before = this.last;
      const after = this.line[this.index + 2];
      const quoted = this.context !== "top" && this.context !== "param";
      const joins = (char: string | undefined) => char !== undefined && (quoted ? char !== "\n" : !BREAKS.has(char));
      if (joins(before) && joins(after))
        this.inWord.push(this.line.slice(Math.max(0, this.index - 12), this.index + 14));
      this.index += 2;
      return;
    }
    this.emit(next === undefined ? "\\" : `\\${next}`);
    this.index += next === undefined ? 1 : 2;
  }

  /** Copies up to and including `end` (a quote without escapes: '...'), or to the end of the line. */
  copyUntil(end: string): void {
    const close = this.line.indexOf(end, this.index + 1);
    const stop = close === -1 ? this.line.length : close + 1;
    this.emit(this.line.slice(this.index, stop));
    this.index = stop;
  }

  /** `$'...'`: backslash escapes, no continuation. */
  ansiC(): void {
    let at = this.index + 2;
    while (at < this.line.length && this.line[at] !== "'") at += this.line[at] === "\\" ? 2 : 1;
    const stop = Math.min(at + 1, this.line.length);
    this.emit(this.line.slice(this.index, stop));
    this.index = stop;
  }

  /** A `#` that starts a comment (at the start of a word outside quotes): copied to the end of its line. */
  comment(): void {
    const close = this.line.indexOf("\n", this.index);
    const stop = close === -1 ? this.line.length : close;
    this.emit(this.line.slice(this.index, stop));
    this.index = stop;
  }

  /** `<<WORD` / `<<-WORD`: the delimiter, whether it is quoted; the body is read after the next newline. */
  heredocStart(): void {
    const strip = this.line[this.index + 2] === "-";
    let at = this.index + (strip ? 3 : 2);
    while (this.line[at] === " " || this.line[at] === "\t") at += 1;
    let delimiter = "";
    let quoted = false;
    while (at < this.line.length && !BREAKS.has(this.line[at] as string)) {
      const char = this.line[at] as string;
      if (char === "'" || char === '"') {
        const close = this.line.indexOf(char, at + 1);
        const stop = close === -1 ? this.line.length : close;
        delimiter += this.line.slice(at + 1, stop);
        quoted = true;
        at = stop + 1;
      } else if (char === "\\") {
        delimiter += this.line[at + 1] ?? "";
        quoted = true;
        at += 2;
      } else {
        delimiter += char;
        at += 1;
      }
    }
    this.pending.push({ delimiter, quoted, stripTabs: strip });
    this.emit(this.line.slice(this.index, Math.min(at, this.line.length)));
    this.index = Math.min(at, this.line.length);
  }

  /** After a newline outside quotes: the bodies of the here-documents started on the line just ended. */
  heredocBodies(): void {
    for (const heredoc of this.pending) {
      for (;;) {
        if (this.index >= this.line.length) break;
        this.currentLine = "";
        const lineEnd = this.bodyLine(heredoc);
        const text = this.bodyText;
        const compared = heredoc.stripTabs ? text.replace(/^\t+/, "") : text;
        if (compared === heredoc.delimiter || lineEnd) break;
      }
    }
    this.pending = [];
  }

  /** The body line just copied, without its newline. */
  private bodyText = "";

  /** Copies one body line (continuations joined unless the delimiter is quoted); true at the end of the input. */
  private bodyLine(heredoc: Heredoc): boolean {
    while (this.index < this.line.length) {
      const char = this.line[this.index] as string;
      if (char === "\\" && !heredoc.quoted) {
        this.backslashInBody();
        continue;
      }
      if (char === "\n") {
        this.bodyText = this.currentLine;
        this.emit(char);
        this.index += 1;
        return false;
      }
      const plain = /[\\\n]/g;
      plain.lastIndex = this.index;
      const stop = plain.exec(this.line)?.index ?? this.line.length;
      this.emit(this.line.slice(this.index, Math.max(stop, this.index + 1)));
      this.index = Math.max(stop, this.index + 1);
    }
    this.bodyText = this.currentLine;
    return true;
  }

  private backslashInBody(): void {
    const saved = this.stack.length;
    this.stack.push("dquote");
    this.backslash();
    this.stack.length = saved;
  }

  /** One character (or construct) in the current context; a run of plain characters is copied at once. */
  step(): void {
    const char = this.line[this.index] as string;
    const context = this.context;
    const run = SPECIAL[context];
    run.lastIndex = this.index;
    if (run.exec(this.line)?.index !== this.index) {
      run.lastIndex = this.index;
      const stop = run.exec(this.line)?.index ?? this.line.length;
      this.emit(this.line.slice(this.index, stop));
      this.index = stop;
      return;
    }
    if (char === "\\") return this.backslash();
    if (context === "backtick") return this.inBacktick(char);
    if (context === "dquote" || context === "dparam") return this.inDoubleQuotes(char);
    return this.unquoted(char);
  }

  private inBacktick(char: string): void {
    if (char === "`") this.stack.pop();
    this.emit(char);
    this.index += 1;
  }

  private inDoubleQuotes(char: string): void {
    if (this.opensExpansion(char)) return;
    if (char === '"' && this.context === "dquote") this.stack.pop();
    else if (char === "}" && this.context === "dparam") this.stack.pop();
    else if (char === '"' && this.context === "dparam") this.stack.push("dquote");
    this.emit(char);
    this.index += 1;
  }

  /** `$(`, `${`, a backtick: a nested context. True when one opened. */
  private opensExpansion(char: string): boolean {
    const next = this.line[this.index + 1];
    if (char === "`") this.stack.push("backtick");
    else if (char === "$" && next === "(") {
      this.stack.push("top");
      this.parens.push(0);
    } else if (char === "$" && next === "{") {
      const inQuotes = this.context === "dquote" || this.context === "dparam";
      this.stack.push(inQuotes ? "dparam" : "param");
    } else return false;
    const length = char === "`" ? 1 : 2;
    this.emit(this.line.slice(this.index, this.index + length));
    this.index += length;
    return true;
  }

  private unquoted(char: string): void {
    const next = this.line[this.index + 1];
    if (char === "'") return this.copyUntil("'");
    if (char === "$" && next === "'") return this.ansiC();
    if (this.opensExpansion(char)) return;
    if (char === '"') this.stack.push("dquote");
    else if (char === "#" && this.context === "top" && (this.last === undefined || BREAKS.has(this.last)))
      return this.comment();
    else if (char === "<" && next === "<" && this.line[this.index + 2] === "<") {
      this.emit("<<<");
      this.index += 3;
      return;
    } else if (char === "<" && next === "<") return this.heredocStart();
    else if (char === "}" && this.context === "param") this.stack.pop();
    else if (char === "(" && this.context === "top") this.parens.push((this.parens.pop() as number) + 1);
    else if (char === ")" && this.context === "top") this.closeParen();
    this.emit(char);
    this.index += 1;
    if (char === "\n" && this.pending.length > 0) this.heredocBodies();
  }

  private closeParen(): void {
    const open = this.parens.at(-1) as number;
    if (open > 0) this.parens[this.parens.length - 1] = open - 1;
    else if (this.stack.length > 1) {
      this.stack.pop();
      this.parens.pop();
    }
  }
}

/**
 * Joins backslash-newline pairs the way bash's lexer does (see the file comment). Pairs it keeps are in single
 * quotes, `$'...'`, comments and quoted-delimiter here-documents; the walker refuses any other it finds left.
 * Returns undefined when `budget` is spent first.
 */
export function joinContinuations(line: string, budget?: { spent: () => boolean }): JoinedLine | undefined {
  if (!line.includes("\\\n")) return { text: line, inWord: [] };
  const joiner = new Joiner(line);
  while (joiner.index < line.length) {
    if (budget?.spent()) return undefined;
    joiner.step();
  }
  return { text: joiner.out.join(""), inWord: joiner.inWord };
}
