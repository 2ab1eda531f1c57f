// A strict reader of git's configuration syntax (the subset git itself accepts): sections `[name]`, `[name "sub"]`,
// the old `[name.sub]`, `key = value` and bare `key` lines, quotes, the escapes \\ \" \n \t \b, backslash-newline
// continuation, `#`/`;` comments. Anything else yields undefined, so the caller can fail closed.

/** One `key = value` of a configuration file, names lowercased (subsection kept as written). */
export interface GitConfigEntry {
  section: string;
  subsection?: string;
  key: string;
  /** null for a bare `key` line (git reads it as true). */
  value: string | null;
}

const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', n: "\n", t: "\t", b: "\b" };

class Reader {
  index = 0;
  constructor(readonly text: string) {}
  peek(): string | undefined {
    return this.text[this.index];
  }
  next(): string | undefined {
    return this.text[this.index++];
  }
  skipBlanks(): void {
    while (this.peek() === " " || this.peek() === "\t") this.index++;
  }
  skipLine(): void {
    while (this.index < this.text.length && this.next() !== "\n");
  }
}

/** `[name]`, `[name "sub"]` or `[name.sub]`, the reader just past `[`; undefined when git would refuse it. */
function header(reader: Reader): { section: string; subsection?: string } | undefined {
  let name = "";
  while (/[A-Za-z0-9.-]/.test(reader.peek() ?? "")) name += reader.next();
  if (name === "") return undefined;
  if (reader.peek() === "]") {
    reader.next();
    const dot = name.indexOf(".");
    if (dot < 0) return { section: name.toLowerCase() };
    if (dot === 0 || dot === name.length - 1) return undefined;
    return { section: name.slice(0, dot).toLowerCase(), subsection: name.slice(dot + 1).toLowerCase() };
  }
  if (name.includes(".")) return undefined;
  reader.skipBlanks();
  if (reader.next() !== '"') return undefined;
  let subsection = "";
  for (;;) {
    let char = reader.next();
    if (char === undefined || char === "\n") return undefined;
    if (char === '"') break;
    if (char === "\\") char = reader.next();
    if (char === undefined || char === "\n") return undefined;
    subsection += char;
  }
  return reader.next() === "]" ? { section: name.toLowerCase(), subsection } : undefined;
}

/** The value after `=`, up to the end of its (possibly continued) line; undefined when git would refuse it. */
function value(reader: Reader): string | undefined {
  let out = "";
  let quoted = false;
  let comment = false;
  let spaces = 0;
  for (;;) {
    const char = reader.next();
    if (char === undefined || char === "\n") return quoted ? undefined : out;
    if (comment) continue;
    if ((char === " " || char === "\t") && !quoted) {
      if (out.length > 0) spaces += 1;
      continue;
    }
    if (!quoted && (char === "#" || char === ";")) {
      comment = true;
      continue;
    }
    out += " ".repeat(spaces);
    spaces = 0;
    if (char === "\\") {
      const escaped = reader.next();
      if (escaped === "\n") continue;
      const meaning = escaped === undefined ? undefined : ESCAPES[escaped];
      if (meaning === undefined) return undefined;
      out += meaning;
    } else if (char === '"') quoted = !quoted;
    else out += char;
  }
}

/**
 * Parses a configuration file's text into its entries, or undefined when any part of it is not plain git syntax
 * (a NUL, a lone carriage return, a key before any section, a bad escape, an unterminated quote...).
 */
export function parseGitConfig(source: string): GitConfigEntry[] | undefined {
  const text = source.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  if (text.includes("\0") || text.includes("\r")) return undefined;
  const reader = new Reader(text);
  const entries: GitConfigEntry[] = [];
  let current: { section: string; subsection?: string } | undefined;
  while (reader.index < text.length) {
    const char = reader.peek() as string;
    if (char === "\n" || char === " " || char === "\t") {
      reader.next();
      continue;
    }
    if (char === "#" || char === ";") {
      reader.skipLine();
      continue;
    }
    if (char === "[") {
      reader.next();
      current = header(reader);
      if (!current) return undefined;
      continue;
    }
    if (!/[A-Za-z]/.test(char) || !current) return undefined;
    let key = "";
    while (/[A-Za-z0-9-]/.test(reader.peek() ?? "")) key += reader.next();
    reader.skipBlanks();
    const after = reader.next();
    let entryValue: string | null = null;
    if (after === "=") {
      const read = value(reader);
      if (read === undefined) return undefined;
      entryValue = read;
    } else if (after === "#" || after === ";") reader.skipLine();
    else if (after !== undefined && after !== "\n") return undefined;
    entries.push({ ...current, key: key.toLowerCase(), value: entryValue });
  }
  return entries;
}
