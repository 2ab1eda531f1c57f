/** The frontmatter and body of a SKILL.md text, or why they could not be told apart. */
export type FrontmatterSplit =
  | {
      ok: true;
      /** YAML between the two `---` lines (without them). */
      yaml: string;
      /** Everything after the closing `---` line, untrimmed. */
      body: string;
      /** 1-based file line of the first YAML line (2 when the opener is line 1). */
      yamlStartLine: number;
      /** 1-based file line where the body starts. */
      bodyStartLine: number;
    }
  | { ok: false; reason: "missing" | "unclosed" };

// `---`, optionally followed by blanks and a YAML comment (`--- # frontmatter`).
const DELIMITER = /^---(?:[ \t]+(?:#.*)?)?$/;

/**
 * Splits normalised SKILL.md text (LF line ends, no BOM) into YAML frontmatter and body. The opener must be the first
 * line and be `---` (trailing blanks and a comment allowed); the closer is the next line that is `---`. Unlike the reference,
 * which splits on the first two `---` substrings anywhere, a `---` inside a value or a `|---|` table rule is not a
 * delimiter (see docs/spec-conformance.md).
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const firstEnd = text.indexOf("\n");
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (!DELIMITER.test(firstLine)) return { ok: false, reason: "missing" };
  if (firstEnd === -1) return { ok: false, reason: "unclosed" };
  let start = firstEnd + 1;
  let line = 2;
  while (start <= text.length) {
    const end = text.indexOf("\n", start);
    const current = end === -1 ? text.slice(start) : text.slice(start, end);
    if (DELIMITER.test(current)) {
      return {
        ok: true,
        yaml: text.slice(firstEnd + 1, start),
        body: end === -1 ? "" : text.slice(end + 1),
        yamlStartLine: 2,
        bodyStartLine: line + 1,
      };
    }
    if (end === -1) break;
    start = end + 1;
    line += 1;
  }
  return { ok: false, reason: "unclosed" };
}
