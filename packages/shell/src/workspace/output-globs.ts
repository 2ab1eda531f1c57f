import { compileLinearGlob } from "./linear-glob.js";

/** At most this many globs per call. */
export const MAX_OUTPUT_GLOBS = 32;
/** Longest glob accepted. */
export const MAX_GLOB_LENGTH = 256;
/**
 * Most pattern tokens over every glob of a call and every `{a,b}` alternative it expands to: matching one path in
 * out/ costs O(path length × tokens), so this bounds the work per file collected.
 */
export const MAX_OUTPUT_GLOB_TOKENS = 512;

/** A matcher over `/`-separated paths relative to `out/`. */
export type OutputMatcher = (relativePath: string) => boolean;

/** Ways other agent runtimes name the output folder at the start of a glob (stripped: globs are relative to out/). */
const OUTPUT_FOLDER_PREFIX = /^(?:\$\{?(?:OUTPUT_DIR|OUT_DIR)\}?|\$\{?WORKSPACE\}?\/out)(?:\/+|$)/;

/**
 * The globs one written glob stands for: `$OUTPUT_DIR/x`, `${OUT_DIR}/x`, `$WORKSPACE/out/x` mean `x` (the bare
 * folder means `**`); `out/x` means `x` (a workspace-relative glob) or `out/x` (a folder named out inside out/).
 */
function normalizeOutputGlob(glob: string): string[] {
  const prefixed = OUTPUT_FOLDER_PREFIX.exec(glob);
  if (prefixed) return [glob.slice(prefixed[0].length) || "**"];
  if (glob.startsWith("out/") && glob.length > 4) return [glob.slice(4), glob];
  return [glob];
}

/**
 * Checks and compiles `output_globs` before the command runs, with a matcher linear in name × pattern (no pattern
 * backtracks), within length, segment, brace-depth and alternative bounds, and a token budget over all of them. `*` and `?` stay inside a segment, `**`
 * spans segments, `{a,b}` alternates; dot-files match like other files. `$OUTPUT_DIR/*.txt`, `${OUT_DIR}/*.txt` and
 * `out/*.txt` mean `*.txt` in out/.
 * @returns the matcher, or a message naming the bad glob
 * @example compileOutputGlobs(["**\/*.{md,csv}"]) // { ok: true, match }
 */
export function compileOutputGlobs(
  globs: readonly string[] | undefined,
): { ok: true; match: OutputMatcher } | { ok: false; message: string } {
  if (globs === undefined || globs.length === 0) return { ok: true, match: () => true };
  if (globs.length > MAX_OUTPUT_GLOBS)
    return { ok: false, message: `at most ${MAX_OUTPUT_GLOBS} output_globs, not ${globs.length}` };
  const matchers: OutputMatcher[] = [];
  let tokens = 0;
  for (const glob of globs) {
    if (typeof glob !== "string" || glob === "" || glob.length > MAX_GLOB_LENGTH || glob.includes("\0")) {
      return {
        ok: false,
        message: `output glob '${String(glob).slice(0, 40)}' must be a non-empty string of at most ${MAX_GLOB_LENGTH} characters`,
      };
    }
    for (const normalized of normalizeOutputGlob(glob)) {
      if (normalized.startsWith("/") || normalized.split("/").includes(".."))
        return { ok: false, message: `output glob '${glob}' must be relative to out/ without '..'` };
      const compiled = compileLinearGlob(normalized);
      if (!compiled.ok) return { ok: false, message: `output glob '${glob.slice(0, 80)}' ${compiled.message}` };
      tokens += compiled.tokens;
      if (tokens > MAX_OUTPUT_GLOB_TOKENS)
        return {
          ok: false,
          message: `output_globs expand to more than ${MAX_OUTPUT_GLOB_TOKENS} pattern tokens (counting every {a,b} alternative); use fewer globs or alternatives`,
        };
      matchers.push(compiled.match);
    }
  }
  return { ok: true, match: (relativePath) => matchers.some((matcher) => matcher(relativePath)) };
}
