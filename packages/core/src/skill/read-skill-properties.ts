import { SkillLoadError } from "./skill-load-error.js";
import { createDiagnostic } from "./create-diagnostic.js";
import { parseSkillMd } from "./parse-skill-md.js";
import { pyStrip } from "./python-string.js";
import { readSkillMdFile, skillDirName, type ReadSkillMdOptions } from "./read-skill-file.js";
import { isPlainRecord } from "./validate-frontmatter.js";

/** A skill's properties as the reference's `read_properties` returns them. */
export interface SkillProperties {
  /** Declared name, stripped (not NFKC-normalised). */
  name: string;
  /** Declared description, stripped. */
  description: string;
  license?: string;
  compatibility?: string;
  /** `allowed-tools` as declared: a string, or a list when written as a YAML list. */
  allowedTools?: string | string[];
  /** `metadata` with every key and value turned into a string (nested values as Python reprs), as the reference does. */
  metadata?: Record<string, string>;
}

/**
 * Reads a skill's properties like the reference's `read_properties`: it does not validate, only requires a parseable
 * frontmatter with non-blank string `name` and `description`.
 * @throws SkillLoadError when SKILL.md is missing or unreadable, its frontmatter unusable, or name/description missing.
 * @example const { name, description } = await readSkillProperties("./skills/pdf");
 */
export async function readSkillProperties(dir: string, options: ReadSkillMdOptions = {}): Promise<SkillProperties> {
  const read = await readSkillMdFile(dir, options);
  if (!read.ok) throw new SkillLoadError({ path: read.file ?? read.dir, diagnostics: read.diagnostics });
  const parsed = parseSkillMd(read.text, { file: read.file, dirName: skillDirName(read.dir) });
  const structural = parsed.diagnostics.filter(
    (diagnostic) => diagnostic.code.startsWith("yaml-") || diagnostic.code.startsWith("frontmatter-"),
  );
  if (parsed.frontmatter === undefined || structural.length > 0)
    throw new SkillLoadError({ path: read.file, diagnostics: structural });
  const frontmatter = parsed.frontmatter;
  for (const field of ["name", "description"] as const) {
    const value = frontmatter[field];
    if (!Object.hasOwn(frontmatter, field))
      throw new SkillLoadError({
        path: read.file,
        diagnostics: [
          createDiagnostic(
            `${field}-missing`,
            { path: read.file, field },
            `missing required field '${field}' in frontmatter`,
          ),
        ],
      });
    if (typeof value !== "string" || pyStrip(value) === "")
      throw new SkillLoadError({
        path: read.file,
        diagnostics: [
          createDiagnostic(`${field}-empty`, { path: read.file, field }, `field '${field}' must be a non-empty string`),
        ],
      });
  }
  const properties: SkillProperties = {
    name: pyStrip(frontmatter.name as string),
    description: pyStrip(frontmatter.description as string),
  };
  if (typeof frontmatter.license === "string" && frontmatter.license !== "") properties.license = frontmatter.license;
  if (typeof frontmatter.compatibility === "string" && frontmatter.compatibility !== "")
    properties.compatibility = frontmatter.compatibility;
  const tools = frontmatter["allowed-tools"];
  if ((typeof tools === "string" && tools !== "") || (Array.isArray(tools) && tools.length > 0))
    properties.allowedTools = tools as string | string[];
  if (isPlainRecord(frontmatter.metadata) && Object.keys(frontmatter.metadata).length > 0) {
    properties.metadata = Object.fromEntries(
      Object.entries(frontmatter.metadata).map(([key, value]) => [
        key,
        typeof value === "string" ? value : pythonRepr(value),
      ]),
    );
  }
  return properties;
}

/**
 * The reference's `to_dict()`: `name`, `description`, then `license`, `compatibility`, `allowed-tools`, `metadata`
 * when set (the reference CLI's `read-properties` JSON).
 */
export function skillPropertiesToDict(properties: SkillProperties): Record<string, unknown> {
  const dict: Record<string, unknown> = { name: properties.name, description: properties.description };
  if (properties.license !== undefined) dict.license = properties.license;
  if (properties.compatibility !== undefined) dict.compatibility = properties.compatibility;
  if (properties.allowedTools !== undefined) dict["allowed-tools"] = properties.allowedTools;
  if (properties.metadata !== undefined) dict.metadata = properties.metadata;
  return dict;
}

/** Python `str()` of a parsed YAML value (strings, lists, dicts), e.g. `{'team': 'infra'}`. */
function pythonRepr(value: unknown): string {
  const quote = (text: string) =>
    text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const inner = (item: unknown): string => {
    if (typeof item === "string") return quote(item);
    if (Array.isArray(item)) return `[${item.map(inner).join(", ")}]`;
    if (isPlainRecord(item))
      return `{${Object.entries(item)
        .map(([key, entry]) => `${quote(key)}: ${inner(entry)}`)
        .join(", ")}}`;
    return String(item);
  };
  return typeof value === "string" ? value : inner(value);
}
