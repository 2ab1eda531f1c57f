// A strict reader of git's configuration syntax (the subset git itself accepts): sections `[name]`, `[name "sub"]`,
// the old `[name.sub]`, `key = value` and bare `key` lines, quotes, the escapes \\ \" \n \t \b, backslash-newline
// continuation, `#`/`;` comments. Anything else yields undefined, so the caller can fail closed. It reads character
// codes and slices (no per-character strings or regular expressions), and in steps: a caller that must not hold the
// event loop runs the steps in slices of CPU time (see stepped-work.ts).

import { runAllSteps } from "./stepped-work.js";

/** One `key = value` of a configuration file, names lowercased (subsection kept as written). */
export interface GitConfigEntry {
  section: string;
  subsection?: string;
  key: string;
  /** null for a bare `key` line (git reads it as true). */
  value: string | null;
}

const END = -1;
const NEWLINE = 10;
const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const SEMICOLON = 59;
const BACKSLASH = 92;
const DOT = 46;
const DASH = 45;
const EQUALS = 61;
const OPEN = 91;
const CLOSE = 93;

/** What each escape means (`\\`, `\"`, `\n`, `\t`, `\b`), by the code of the character after the backslash. */
const ESCAPES: ReadonlyMap<number, string> = new Map([
  [BACKSLASH, "\\"],
  [QUOTE, '"'],
  [110, "\n"],
  [116, "\t"],
  [98, "\b"],
]);

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isKeyCode = (code: number) => isLetter(code) || (code >= 48 && code <= 57) || code === DASH;
const isSectionCode = (code: number) => isKeyCode(code) || code === DOT;
const isBlank = (code: number) => code === SPACE || code === TAB;

class Reader {
  index = 0;
  constructor(readonly text: string) {}
  /** The code of the character at the cursor, END past the text. */
  peek(): number {
    return this.index < this.text.length ? this.text.charCodeAt(this.index) : END;
  }
  next(): number {
    const code = this.peek();
    this.index += 1;
    return code;
  }
  /** Moves past the run of characters `accept` takes and returns it. */
  take(accept: (code: number) => boolean): string {
    const start = this.index;
    while (this.index < this.text.length && accept(this.text.charCodeAt(this.index))) this.index += 1;
    return this.text.slice(start, this.index);
  }
  skipLine(): void {
    const end = this.text.indexOf("\n", this.index);
    this.index = end < 0 ? this.text.length : end + 1;
  }
}

/** The quoted subsection of `[name "sub"]`, the reader just past the opening quote; undefined when git would refuse it. */
function quotedSubsection(reader: Reader): string | undefined {
  let subsection = "";
  for (;;) {
    let code = reader.next();
    if (code === END || code === NEWLINE) return undefined;
    if (code === QUOTE) return subsection;
    if (code === BACKSLASH) code = reader.next();
    if (code === END || code === NEWLINE) return undefined;
    subsection += String.fromCharCode(code);
  }
}

/** `[name]`, `[name "sub"]` or `[name.sub]`, the reader just past `[`; undefined when git would refuse it. */
function header(reader: Reader): { section: string; subsection?: string } | undefined {
  const name = reader.take(isSectionCode);
  if (name === "") return undefined;
  if (reader.peek() === CLOSE) {
    reader.next();
    const dot = name.indexOf(".");
    if (dot < 0) return { section: name.toLowerCase() };
    if (dot === 0 || dot === name.length - 1) return undefined;
    return { section: name.slice(0, dot).toLowerCase(), subsection: name.slice(dot + 1).toLowerCase() };
  }
  if (name.includes(".")) return undefined;
  reader.take(isBlank);
  if (reader.next() !== QUOTE) return undefined;
  const subsection = quotedSubsection(reader);
  if (subsection === undefined) return undefined;
  return reader.next() === CLOSE ? { section: name.toLowerCase(), subsection } : undefined;
}

/** The value after `=`, up to the end of its (possibly continued) line; undefined when git would refuse it. */
function value(reader: Reader): string | undefined {
  let out = "";
  let quoted = false;
  let spaces = 0;
  for (;;) {
    const code = reader.next();
    if (code === END || code === NEWLINE) return quoted ? undefined : out;
    if (isBlank(code) && !quoted) {
      if (out.length > 0) spaces += 1;
      continue;
    }
    if (!quoted && (code === HASH || code === SEMICOLON)) {
      // a comment to the end of the line (a backslash in it continues nothing)
      reader.skipLine();
      return out;
    }
    if (spaces > 0) out += " ".repeat(spaces);
    spaces = 0;
    if (code === BACKSLASH) {
      const escaped = reader.next();
      if (escaped === NEWLINE) continue;
      const meaning = ESCAPES.get(escaped);
      if (meaning === undefined) return undefined;
      out += meaning;
    } else if (code === QUOTE) quoted = !quoted;
    else {
      // the run of plain characters up to the next one that means something, as one slice
      const start = reader.index - 1;
      reader.take(
        (next) =>
          !isBlank(next) &&
          next !== NEWLINE &&
          next !== BACKSLASH &&
          next !== QUOTE &&
          next !== HASH &&
          next !== SEMICOLON,
      );
      out += reader.text.slice(start, reader.index);
    }
  }
}

/** One `key` or `key = value` line, the reader at its first letter; undefined when git would refuse it. */
function entry(reader: Reader, current: { section: string; subsection?: string }): GitConfigEntry | undefined {
  const key = reader.take(isKeyCode);
  reader.take(isBlank);
  const after = reader.next();
  let entryValue: string | null = null;
  if (after === EQUALS) {
    const read = value(reader);
    if (read === undefined) return undefined;
    entryValue = read;
  } else if (after !== END && after !== NEWLINE) return undefined; // git refuses `key # comment` too
  return { ...current, key: key.toLowerCase(), value: entryValue };
}

/** Headers and entries read between two steps of {@link parseGitConfigSteps}. */
export const GIT_CONFIG_ITEMS_PER_STEP = 256;

/**
 * Parses a configuration file's text into its entries, or undefined when any part of it is not plain git syntax
 * (a NUL, a lone carriage return, a key before any section, a bad escape, an unterminated quote...), pausing after
 * every {@link GIT_CONFIG_ITEMS_PER_STEP} headers and entries.
 */
export function* parseGitConfigSteps(source: string): Generator<void, GitConfigEntry[] | undefined, void> {
  const text = source.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  if (text.includes("\0") || text.includes("\r")) return undefined;
  const reader = new Reader(text);
  const entries: GitConfigEntry[] = [];
  let current: { section: string; subsection?: string } | undefined;
  let items = 0;
  while (reader.index < text.length) {
    const code = reader.peek();
    if (code === NEWLINE || isBlank(code)) {
      reader.next();
      continue;
    }
    if (code === HASH || code === SEMICOLON) {
      reader.skipLine();
      continue;
    }
    if (code === OPEN) {
      reader.next();
      current = header(reader);
      if (!current) return undefined;
    } else {
      if (!isLetter(code) || !current) return undefined;
      const read = entry(reader, current);
      if (!read) return undefined;
      entries.push(read);
    }
    items += 1;
    if (items % GIT_CONFIG_ITEMS_PER_STEP === 0) yield;
  }
  return entries;
}

/** {@link parseGitConfigSteps} in one call. */
export function parseGitConfig(source: string): GitConfigEntry[] | undefined {
  return runAllSteps(parseGitConfigSteps(source));
}
