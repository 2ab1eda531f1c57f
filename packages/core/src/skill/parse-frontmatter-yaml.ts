import { LineCounter, parseDocument } from "yaml";
import { findStrictYamlViolations } from "../internal/yaml-strict-subset.js";
import { findStrictYamlTabs } from "../internal/yaml-strict-tabs.js";
import { maxBracketDepth } from "../internal/yaml-nesting-depth.js";

/** Most aliases a frontmatter may expand when loaded leniently (a billion-laughs document needs thousands). */
export const MAX_YAML_ALIASES = 100;
/** Deepest bracket nesting accepted before parsing. */
export const MAX_YAML_BRACKET_DEPTH = 64;

/** A YAML problem, positioned in the YAML text (1-based line/column). */
export interface YamlProblem {
  code: "yaml-invalid" | "yaml-alias-limit" | "yaml-too-deep";
  message: string;
  line?: number;
  column?: number;
}

/** What parsing frontmatter YAML gave. */
export interface FrontmatterYaml {
  /**
   * The data, every scalar a string (YAML failsafe schema, as the reference's strictyaml). `undefined` when the YAML
   * cannot be parsed at all; present (with `strictViolations`) when only strictyaml would refuse it.
   */
  data: unknown;
  /** Set when the YAML cannot be used at all. */
  fatal?: YamlProblem;
  /** Constructs strictyaml rejects but the lenient loader still understood (flow lists, anchors, tags, duplicate keys). */
  strictViolations: YamlProblem[];
}

/**
 * Parses frontmatter YAML the way the reference reads it (all scalars strings, comments dropped), while also noting
 * what strictyaml would refuse. Safe on hostile input: bracket depth is checked first and alias expansion is capped.
 */
export function parseFrontmatterYaml(yaml: string): FrontmatterYaml {
  const depth = maxBracketDepth(yaml);
  if (depth > MAX_YAML_BRACKET_DEPTH) {
    return {
      data: undefined,
      strictViolations: [],
      fatal: { code: "yaml-too-deep", message: `brackets nest ${depth} deep (limit ${MAX_YAML_BRACKET_DEPTH})` },
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(yaml, { schema: "failsafe", uniqueKeys: false, lineCounter, prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError !== undefined) {
    const position = lineCounter.linePos(firstError.pos[0]);
    return {
      data: undefined,
      strictViolations: [],
      fatal: {
        code: "yaml-invalid",
        message: firstError.message.split("\n")[0] ?? "invalid YAML",
        line: position.line,
        column: position.col,
      },
    };
  }
  let strictViolations: YamlProblem[] = [];
  try {
    const tabs = findStrictYamlTabs(yaml).map((offset) => ({
      offset,
      message: "tab character outside quotes, block scalars and comments is not allowed (strict YAML: use spaces)",
    }));
    strictViolations = [...findStrictYamlViolations(document, (offset) => lineCounter.linePos(offset).col), ...tabs]
      .sort((a, b) => a.offset - b.offset)
      .map((violation): YamlProblem => {
        const position = lineCounter.linePos(violation.offset);
        return { code: "yaml-invalid", message: violation.message, line: position.line, column: position.col };
      });
    return { data: nullsToEmptyStrings(document.toJS({ maxAliasCount: MAX_YAML_ALIASES })), strictViolations };
  } catch (error) {
    if (error instanceof ReferenceError) {
      return {
        data: undefined,
        strictViolations,
        fatal: {
          code: "yaml-alias-limit",
          message: `aliases expand too much (limit ${MAX_YAML_ALIASES}): ${error.message}`,
        },
      };
    }
    if (error instanceof RangeError)
      return {
        data: undefined,
        strictViolations,
        fatal: { code: "yaml-invalid", message: "the YAML is nested too deeply to read" },
      };
    return {
      data: undefined,
      strictViolations,
      fatal: { code: "yaml-invalid", message: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** strictyaml reads every empty value as "" (the failsafe schema leaves a few, like `? key` without a value, null). */
function nullsToEmptyStrings(value: unknown): unknown {
  if (value === null || value === undefined) return value === null ? "" : value;
  if (Array.isArray(value)) return value.map(nullsToEmptyStrings);
  if (typeof value === "object") {
    for (const key of Object.keys(value))
      (value as Record<string, unknown>)[key] = nullsToEmptyStrings((value as Record<string, unknown>)[key]);
  }
  return value;
}
