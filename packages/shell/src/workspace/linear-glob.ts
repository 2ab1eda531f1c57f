/**
 * A glob matcher whose time is linear in name × pattern: the pattern becomes a list of tokens matched by a set of
 * positions advanced one character at a time (a Thompson-style simulation), so no pattern can make it backtrack.
 *
 * Syntax: `*` and `?` stay inside a `/`-separated segment, `**` as a whole segment spans segments (`a/**` also
 * matches `a`), `[abc]`, `[a-z]`, `[!a]` / `[^a]` match one character, `{a,b}` alternates (expanded first, bounded),
 * `\x` is a literal `x`, a leading `!` negates the glob. Dot-files match like other files.
 */

/** Most `/`-separated segments in one glob. */
export const MAX_GLOB_SEGMENTS = 64;
/** Deepest `{...}` nesting. */
export const MAX_BRACE_DEPTH = 3;
/** Most alternatives one glob expands to (`{a,b}{c,d}` is four). */
export const MAX_GLOB_ALTERNATIVES = 32;

type Token =
  | { kind: "char"; char: string }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: Array<readonly [number, number]> }
  /** `(.*\/)?`: any number of whole segments (a `**` segment before more of the pattern). */
  | { kind: "segments" }
  /** `.*`: anything (a glob that is `**` alone, or `a/**`'s tail). */
  | { kind: "rest" };

/** A checked glob, or a message naming what is wrong with it. */
export type LinearGlob =
  | {
      ok: true;
      match: (name: string) => boolean;
      /** Tokens over all alternatives: matching one name costs O(name length × tokens). */
      tokens: number;
    }
  | { ok: false; message: string };

function braceDepth(glob: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index];
    if (char === "\\") index += 1;
    else if (char === "{") deepest = Math.max(deepest, ++depth);
    else if (char === "}") depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** The first top-level `{...}` holding a top-level comma: [open, close, comma positions], or undefined. */
function firstAlternation(glob: string): { open: number; close: number; commas: number[] } | undefined {
  for (let open = 0; open < glob.length; open += 1) {
    if (glob[open] === "\\") {
      open += 1;
      continue;
    }
    if (glob[open] !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = open; index < glob.length; index += 1) {
      const char = glob[index];
      if (char === "\\") index += 1;
      else if (char === "{") depth += 1;
      else if (char === "," && depth === 1) commas.push(index);
      else if (char === "}" && --depth === 0) {
        if (commas.length > 0) return { open, close: index, commas };
        break;
      }
    }
  }
  return undefined;
}

/** Expands `{a,b}` alternations, refusing more than the bound (checked as it grows, so `{a,b}` × 20 stops early). */
function expandBraces(glob: string): string[] | undefined {
  const done: string[] = [];
  const pending = [glob];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    const found = firstAlternation(next);
    if (!found) {
      done.push(next);
    } else {
      const bounds = [found.open, ...found.commas, found.close];
      for (let part = 0; part + 1 < bounds.length; part += 1)
        pending.push(
          next.slice(0, found.open) +
            next.slice((bounds[part] as number) + 1, bounds[part + 1]) +
            next.slice(found.close + 1),
        );
    }
    if (done.length + pending.length > MAX_GLOB_ALTERNATIVES) return undefined;
  }
  return done;
}

function parseClass(segment: string, start: number): { token: Token; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (segment[index] === "!" || segment[index] === "^") {
    negated = true;
    index += 1;
  }
  const ranges: Array<readonly [number, number]> = [];
  let first = true;
  while (index < segment.length && (segment[index] !== "]" || first)) {
    first = false;
    let char = segment[index] as string;
    if (char === "\\" && index + 1 < segment.length) char = segment[++index] as string;
    const low = char.codePointAt(0) as number;
    if (segment[index + 1] === "-" && index + 2 < segment.length && segment[index + 2] !== "]") {
      const high = (segment[index + 2] as string).codePointAt(0) as number;
      if (high < low) return undefined;
      ranges.push([low, high]);
      index += 3;
    } else {
      ranges.push([low, low]);
      index += 1;
    }
  }
  if (index >= segment.length) return undefined;
  return { token: { kind: "class", negated, ranges }, end: index };
}

function segmentTokens(segment: string, tokens: Token[]): string | undefined {
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] as string;
    if (char === "\\") {
      if (index + 1 >= segment.length) return "ends with a lone backslash";
      tokens.push({ kind: "char", char: segment[++index] as string });
    } else if (char === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (char === "?") {
      tokens.push({ kind: "one" });
    } else if (char === "[") {
      const parsed = parseClass(segment, index);
      if (!parsed) return "has an unclosed or reversed [...] class";
      tokens.push(parsed.token);
      index = parsed.end;
    } else {
      tokens.push({ kind: "char", char });
    }
  }
  return undefined;
}

/** Tokens of one brace-free alternative; `a/**` becomes two alternatives (`a`, and `a/` then anything). */
function tokenize(alternative: string): Token[][] | string {
  const segments = alternative
    .split("/")
    .filter((segment, index, all) => !(segment === "**" && all[index - 1] === "**"));
  const tokens: Token[] = [];
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    const last = index === segments.length - 1;
    if (segment === "**") {
      if (!last) {
        tokens.push({ kind: "segments" });
        continue;
      }
      if (index === 0) return [[{ kind: "rest" }]];
      const bare = tokens.slice(0, -1); // without the '/' after the previous segment
      return [bare, [...tokens, { kind: "rest" }]];
    }
    const problem = segmentTokens(segment, tokens);
    if (problem) return problem;
    if (!last) tokens.push({ kind: "char", char: "/" });
  }
  return [tokens];
}

const zeroWidth = (token: Token | undefined) =>
  token !== undefined && (token.kind === "star" || token.kind === "segments" || token.kind === "rest");

function inClass(token: Extract<Token, { kind: "class" }>, code: number): boolean {
  const found = token.ranges.some(([low, high]) => code >= low && code <= high);
  return found !== token.negated;
}

/**
 * Runs the position-set simulation: O(name length × token count), no backtracking. `at[i]` means "about to match
 * token i"; `inside[i]` means "inside the segments loop of token i" (which may only be left by consuming a `/`).
 */
function simulate(tokens: readonly Token[], name: string): boolean {
  const size = tokens.length + 1;
  let at = new Uint8Array(size);
  let inside = new Uint8Array(size);
  let nextAt = new Uint8Array(size);
  let nextInside = new Uint8Array(size);
  const close = (set: Uint8Array) => {
    for (let index = 0; index < tokens.length; index += 1)
      if (set[index] && zeroWidth(tokens[index])) set[index + 1] = 1;
  };
  at[0] = 1;
  close(at);
  for (const char of name) {
    nextAt.fill(0);
    nextInside.fill(0);
    let alive = false;
    const slash = char === "/";
    for (let index = 0; index < tokens.length; index += 1) {
      const token = tokens[index] as Token;
      if (inside[index] || (at[index] && token.kind === "segments")) {
        nextInside[index] = 1;
        if (slash) nextAt[index + 1] = 1;
        alive = true;
      }
      if (!at[index] || token.kind === "segments") continue;
      let advance = false;
      let stay = false;
      if (token.kind === "char") advance = token.char === char;
      else if (token.kind === "one") advance = !slash;
      else if (token.kind === "class") advance = !slash && inClass(token, char.codePointAt(0) as number);
      else if (token.kind === "star") stay = !slash;
      else stay = true;
      if (stay) nextAt[index] = 1;
      if (advance) nextAt[index + 1] = 1;
      alive ||= stay || advance;
    }
    if (!alive) return false;
    close(nextAt);
    [at, nextAt] = [nextAt, at];
    [inside, nextInside] = [nextInside, inside];
  }
  return at[tokens.length] === 1;
}

/**
 * Checks a glob against the bounds (segments, brace depth, alternatives) and compiles it to a linear-time matcher.
 * @example compileLinearGlob("**\/*.{md,csv}") // { ok: true, match }
 */
export function compileLinearGlob(glob: string): LinearGlob {
  const negated = glob.startsWith("!") && !glob.startsWith("!(");
  const body = negated ? glob.slice(1) : glob;
  if (body.split("/").length > MAX_GLOB_SEGMENTS)
    return { ok: false, message: `has more than ${MAX_GLOB_SEGMENTS} '/'-separated segments` };
  if (braceDepth(body) > MAX_BRACE_DEPTH) return { ok: false, message: `nests '{...}' deeper than ${MAX_BRACE_DEPTH}` };
  const alternatives = expandBraces(body);
  if (!alternatives) return { ok: false, message: `expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives` };
  const compiled: Token[][] = [];
  for (const alternative of alternatives) {
    const tokens = tokenize(alternative);
    if (typeof tokens === "string") return { ok: false, message: tokens };
    compiled.push(...tokens);
  }
  const matches = (name: string) => compiled.some((tokens) => simulate(tokens, name));
  const tokens = compiled.reduce((sum, alternative) => sum + alternative.length + 1, 0);
  return { ok: true, match: negated ? (name) => !matches(name) : matches, tokens };
}
