import { createDiagnostic } from "./create-diagnostic.js";
import { parseFrontmatterYaml } from "./parse-frontmatter-yaml.js";
import { pyStrip } from "./python-string.js";
import type { SkillDiagnostic } from "./skill-types.js";
import { applyDialect, dialectAllowsFlowYaml, flowNote, isFlowViolation, type SkillDialect } from "./skill-dialect.js";
import { splitFrontmatter } from "./split-frontmatter.js";
import { isPlainRecord, validateFrontmatter } from "./validate-frontmatter.js";

/** The spec's recommended maximum length of SKILL.md instructions, in lines. */
export const MAX_BODY_LINES = 500;

/** Options of `parseSkillMd`. */
export interface ParseSkillMdOptions {
  /** Path used in messages and as each diagnostic's `path` (e.g. the SKILL.md path, or `code:my-skills/greeting`). */
  file: string;
  /** Name of the skill folder; enables the name/folder check. Leave out for skills defined in code. */
  dirName?: string;
  /** Another runtime's dialect: its keys and flow-style YAML get a `dialect-field` note, not an error. @default "reference" */
  dialect?: SkillDialect;
}

/** What `parseSkillMd` found. */
export interface ParsedSkillMd {
  /**
   * Frontmatter as a mapping (every scalar a string), or `undefined` when there is none usable (missing, unclosed,
   * unparseable YAML, not a mapping). Present even when strictyaml would refuse the YAML (flow lists, anchors...).
   */
  frontmatter: Record<string, unknown> | undefined;
  /** Markdown after the frontmatter, trimmed as the reference does. */
  body: string;
  /** Every finding, errors first in the reference's order, then warnings. */
  diagnostics: SkillDiagnostic[];
}

/**
 * Parses and validates SKILL.md text held in memory, exactly as the reference validator would (plus warnings).
 * CRLF and lone CR become LF; a UTF-8 BOM is stripped with a warning. Like the reference, a frontmatter or YAML
 * error stops the field checks: it is the only error reported.
 * @param text Full SKILL.md text (frontmatter and body).
 * @param options `file` names the source in messages; `dirName` enables the name/folder check.
 * @example
 * const { frontmatter, body, diagnostics } = parseSkillMd("---\nname: greeting\ndescription: Greets.\n---\nHi", { file: "greeting/SKILL.md", dirName: "greeting" });
 */
export function parseSkillMd(text: string, options: ParseSkillMdOptions): ParsedSkillMd {
  const { file } = options;
  const warnings: SkillDiagnostic[] = [];
  let normalised = text;
  if (normalised.startsWith("\uFEFF")) {
    normalised = normalised.slice(1);
    warnings.push(
      createDiagnostic(
        "utf8-bom",
        { path: file, line: 1 },
        "file starts with a UTF-8 byte order mark; it was ignored, but the reference validator rejects it",
      ),
    );
  }
  // Most files have no CR at all: a scan for one is much cheaper than a replace over the whole text.
  if (normalised.includes("\r")) normalised = normalised.replace(/\r\n?/g, "\n");

  const split = splitFrontmatter(normalised);
  if (!split.ok) {
    const diagnostic =
      split.reason === "missing"
        ? createDiagnostic(
            "frontmatter-missing",
            { path: file, line: 1 },
            "SKILL.md must start with YAML frontmatter: a first line '---'",
          )
        : createDiagnostic(
            "frontmatter-unclosed",
            { path: file },
            "SKILL.md frontmatter is not closed with a '---' line",
          );
    return {
      frontmatter: undefined,
      body: split.reason === "missing" ? pyStrip(normalised) : "",
      diagnostics: [diagnostic, ...warnings],
    };
  }

  const body = pyStrip(split.body);
  const yaml = parseFrontmatterYaml(split.yaml);
  const toFileLine = (line: number | undefined) => (line === undefined ? undefined : line + split.yamlStartLine - 1);
  if (yaml.fatal !== undefined) {
    const { code, message, line, column } = yaml.fatal;
    const diagnostic = createDiagnostic(
      code,
      { path: file, line: toFileLine(line), column },
      `invalid YAML in frontmatter: ${message}`,
    );
    return { frontmatter: undefined, body, diagnostics: [diagnostic, ...warnings] };
  }
  if (!isPlainRecord(yaml.data)) {
    const diagnostic = createDiagnostic(
      "frontmatter-not-mapping",
      { path: file, line: split.yamlStartLine },
      "SKILL.md frontmatter must be a YAML mapping (key: value lines)",
    );
    return { frontmatter: undefined, body, diagnostics: [diagnostic, ...warnings] };
  }
  const frontmatter = yaml.data;
  warnings.push(...bodyWarnings(body, file, split.bodyStartLine));
  const dialect = options.dialect ?? "reference";
  const flowAccepted = dialectAllowsFlowYaml(dialect);
  const violations = yaml.strictViolations.filter((violation) => !flowAccepted || !isFlowViolation(violation.message));
  const notes = yaml.strictViolations
    .filter((violation) => !violations.includes(violation))
    .map(({ line, column }) => flowNote(dialect, file, line === undefined ? undefined : toFileLine(line), column));
  if (violations.length > 0) {
    // The reference stops at the first parse error; every violation is listed, but field checks do not run.
    const errors = violations.map(({ message, line, column }) =>
      createDiagnostic(
        "yaml-invalid",
        { path: file, line: toFileLine(line), column },
        `invalid YAML in frontmatter: ${message}`,
      ),
    );
    return { frontmatter, body, diagnostics: [...errors, ...warnings] };
  }
  const checks = applyDialect(validateFrontmatter(frontmatter, options), dialect, file);
  const errors = checks.filter((diagnostic) => diagnostic.severity === "error");
  const advice = [...notes, ...checks.filter((diagnostic) => diagnostic.severity !== "error")];
  return { frontmatter, body, diagnostics: [...errors, ...advice, ...warnings] };
}

function bodyWarnings(body: string, file: string, bodyStartLine: number): SkillDiagnostic[] {
  if (body === "")
    return [
      createDiagnostic(
        "body-empty",
        { path: file, line: bodyStartLine },
        "the body (instructions after the frontmatter) is empty",
      ),
    ];
  let lines = 1;
  for (let index = body.indexOf("\n"); index !== -1; index = body.indexOf("\n", index + 1)) lines += 1;
  if (lines > MAX_BODY_LINES)
    return [
      createDiagnostic(
        "body-too-long",
        { path: file },
        `the body has ${lines} lines; the spec recommends under ${MAX_BODY_LINES} (move details to references/)`,
      ),
    ];
  return [];
}
