import picomatch from "picomatch";

/** At most this many globs per call. */
export const MAX_OUTPUT_GLOBS = 32;
/** Longest glob accepted. */
export const MAX_GLOB_LENGTH = 256;

/** A matcher over `/`-separated paths relative to `out/`. */
export type OutputMatcher = (relativePath: string) => boolean;

/**
 * Checks and compiles `output_globs` before the command runs (picomatch: no backtracking blow-up on `**` repeated).
 * `*` and `?` stay inside a segment, `**` spans segments, `{a,b}` alternates; dot-files match like other files.
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
  for (const glob of globs) {
    if (typeof glob !== "string" || glob === "" || glob.length > MAX_GLOB_LENGTH || glob.includes("\0")) {
      return {
        ok: false,
        message: `output glob '${String(glob).slice(0, 40)}' must be a non-empty string of at most ${MAX_GLOB_LENGTH} characters`,
      };
    }
    if (glob.startsWith("/") || glob.split("/").includes(".."))
      return { ok: false, message: `output glob '${glob}' must be relative to out/ without '..'` };
    try {
      matchers.push(picomatch(glob, { dot: true, strictBrackets: true }));
    } catch (error) {
      return { ok: false, message: `output glob '${glob}' is not valid: ${(error as Error).message}` };
    }
  }
  return { ok: true, match: (relativePath) => matchers.some((matcher) => matcher(relativePath)) };
}
