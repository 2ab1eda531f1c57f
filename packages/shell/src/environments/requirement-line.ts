/**
 * The strict requirement-line grammar: a subset of PEP 508 without URLs, paths, options or environment variables.
 *
 *   line      = name [extras] [specs] [";" marker]
 *   name      = letter-or-digit ([A-Za-z0-9._-]* letter-or-digit)?   (not ending in an archive suffix)
 *   extras    = "[" name ("," name)* "]"
 *   specs     = spec ("," spec)*       spec = ("~=" | "==" | "!=" | "<=" | ">=" | "<" | ">" | "===") version
 *   version   = a PEP 440 public version (`==`/`!=` may end in `.*`), optionally `+local`
 *   marker    = and-expr ("or" and-expr)*   and-expr = atom ("and" atom)*
 *   atom      = "(" marker ")" | variable op quoted | quoted op variable
 *   quoted    = '...' or "..." over [A-Za-z0-9._*+!-] (no spaces, so no token a pip option parser could see)
 *
 * Anything else is refused: pip reads a requirements file with its own option parser, so a space followed by `-`
 * anywhere on a line (even inside a marker) starts an option such as `--index-url`.
 */

const MAX_LINE = 200;
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;
const OPERATOR = /^(===|~=|==|!=|<=|>=|<|>)/;
const VERSION =
  /^(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?(?:\.\*|\+[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)?/;
const MARKER_OPERATOR = /^(===|~=|==|!=|<=|>=|<|>|not\s+in(?=[\s'"])|in(?=[\s'"]))/;
const QUOTED = /^(?:'[A-Za-z0-9._*+!-]*'|"[A-Za-z0-9._*+!-]*")/;
const MARKER_VARIABLES = new Set([
  "python_version",
  "python_full_version",
  "os_name",
  "sys_platform",
  "platform_release",
  "platform_system",
  "platform_version",
  "platform_machine",
  "platform_python_implementation",
  "implementation_name",
  "implementation_version",
  "extra",
]);
/** What pip treats as an archive to install from a path (a name or line ending so is a file, not a package). */
const ARCHIVE_SUFFIXES = [
  ".zip",
  ".whl",
  ".tar",
  ".tgz",
  ".tbz",
  ".txz",
  ".tlz",
  ".gz",
  ".bz2",
  ".xz",
  ".lz",
  ".lzma",
  ".tar.gz",
  ".tar.bz2",
  ".tar.xz",
  ".tar.lz",
  ".tar.lzma",
];

/** One requirement line checked: its canonical form (what pip is given), or why it was refused. */
export type RequirementLine = { ok: true; requirement: string } | { ok: false; message: string };

class Cursor {
  constructor(
    readonly text: string,
    public at = 0,
  ) {}
  rest(): string {
    return this.text.slice(this.at);
  }
  skipSpaces(): void {
    while (this.text[this.at] === " ") this.at += 1;
  }
  take(pattern: RegExp): string | undefined {
    const found = pattern.exec(this.rest());
    if (!found) return undefined;
    this.at += found[0].length;
    return found[0];
  }
  done(): boolean {
    return this.at >= this.text.length;
  }
}

const endsLikeArchive = (text: string) => ARCHIVE_SUFFIXES.some((suffix) => text.toLowerCase().endsWith(suffix));

function parseMarker(cursor: Cursor, depth: number): string | undefined {
  const parts: string[] = [];
  for (;;) {
    cursor.skipSpaces();
    let atom: string | undefined;
    if (cursor.take(/^\(/)) {
      if (depth >= 4) return undefined;
      const inner = parseMarker(cursor, depth + 1);
      cursor.skipSpaces();
      if (inner === undefined || !cursor.take(/^\)/)) return undefined;
      atom = `(${inner})`;
    } else {
      const left = cursor.take(QUOTED) ?? cursor.take(/^[a-z_]+/);
      cursor.skipSpaces();
      const operator = cursor.take(MARKER_OPERATOR);
      cursor.skipSpaces();
      const right = cursor.take(QUOTED) ?? cursor.take(/^[a-z_]+/);
      if (left === undefined || operator === undefined || right === undefined) return undefined;
      const variables = [left, right].filter((side) => !side.startsWith("'") && !side.startsWith('"'));
      if (variables.length !== 1 || !MARKER_VARIABLES.has(variables[0] as string)) return undefined;
      atom = `${left} ${operator.replace(/\s+/, " ")} ${right}`;
    }
    parts.push(atom);
    cursor.skipSpaces();
    const joiner = cursor.take(/^(and|or)(?=[\s(])/);
    if (joiner === undefined) return parts.join(" ");
    parts.push(joiner);
  }
}

/**
 * Checks one requirements-file line (comment already removed, trimmed) against the strict grammar above.
 * @returns the canonical line to hand to pip, or a message saying what is wrong
 * @example parseRequirementLine("numpy >= 1.24, < 2") // { ok: true, requirement: "numpy>=1.24,<2" }
 */
export function parseRequirementLine(line: string): RequirementLine {
  const refuse = (why: string): RequirementLine => ({ ok: false, message: why });
  if (line.length > MAX_LINE) return refuse(`longer than ${MAX_LINE} characters`);
  if (!/^[\x20-\x7e]*$/.test(line)) return refuse("has characters other than printable ASCII and spaces");
  const cursor = new Cursor(line);
  const name = cursor.take(NAME);
  if (name === undefined) return refuse("does not start with a package name");
  if (endsLikeArchive(name)) return refuse(`'${name}' is an archive file name, not a package name`);
  let requirement = name;
  cursor.skipSpaces();
  if (cursor.take(/^\[/)) {
    const extras: string[] = [];
    do {
      cursor.skipSpaces();
      const extra = cursor.take(NAME);
      cursor.skipSpaces();
      if (extra === undefined) return refuse("has an extra that is not a name");
      extras.push(extra);
    } while (cursor.take(/^,/));
    if (!cursor.take(/^\]/)) return refuse("has an unclosed extras list");
    requirement += `[${extras.join(",")}]`;
    cursor.skipSpaces();
  }
  const specs: string[] = [];
  while (!cursor.done() && cursor.rest()[0] !== ";") {
    if (specs.length > 0 && !cursor.take(/^,/)) return refuse(`has '${cursor.rest()}' where a version was expected`);
    cursor.skipSpaces();
    const operator = cursor.take(OPERATOR);
    cursor.skipSpaces();
    const version = cursor.take(VERSION);
    if (operator === undefined || version === undefined)
      return refuse(`has '${cursor.rest()}' where a version specifier was expected`);
    if (version.endsWith(".*") && operator !== "==" && operator !== "!=")
      return refuse(`uses '.*' with '${operator}' (only == and != take a wildcard)`);
    specs.push(`${operator}${version}`);
    cursor.skipSpaces();
  }
  requirement += specs.join(",");
  if (endsLikeArchive(requirement)) return refuse("ends like an archive file name (pip would read it as a path)");
  if (cursor.take(/^;/)) {
    const marker = parseMarker(cursor, 0);
    cursor.skipSpaces();
    if (marker === undefined || !cursor.done()) return refuse("has an environment marker outside the allowed grammar");
    requirement += `; ${marker}`;
  }
  if (!cursor.done()) return refuse(`has '${cursor.rest()}' after the requirement`);
  return { ok: true, requirement };
}
