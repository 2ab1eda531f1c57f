import { dialectAllowedTools, dialectDependencies } from "./frontmatter-dialects.js";
import { pyStrip } from "./python-string.js";
import type { SkillDiagnostic, SkillMetadata, SkillOrigin } from "./skill-types.js";
import { ALLOWED_FRONTMATTER_FIELDS, isPlainRecord, MAX_NAME_LENGTH } from "./validate-frontmatter.js";

/** Everything but the frontmatter that a SkillMetadata needs. */
export interface SkillMetadataContext {
  dir: string;
  file: string;
  origin: SkillOrigin;
  hash: string;
  diagnostics: SkillDiagnostic[];
}

const specFields = new Set<string>(ALLOWED_FRONTMATTER_FIELDS);

/**
 * The declared name and description, trimmed, when both are non-blank strings (what lenient loading needs). A name
 * with a control character (a newline would inject a heading into the skills prompt) or longer than the spec's 64
 * characters is not usable either: lenient loading must not let one skill's name crowd out or rewrite the listing.
 */
export function usableNameAndDescription(
  frontmatter: Record<string, unknown>,
): { name: string; description: string } | undefined {
  const { name, description } = frontmatter;
  if (typeof name !== "string" || typeof description !== "string") return undefined;
  const trimmedName = pyStrip(name);
  if (/\p{Cc}/u.test(trimmedName) || [...trimmedName].length > MAX_NAME_LENGTH) return undefined;
  const trimmedDescription = pyStrip(description);
  return trimmedName === "" || trimmedDescription === ""
    ? undefined
    : { name: trimmedName, description: trimmedDescription };
}

/**
 * Builds level-1 metadata from a parsed frontmatter, leniently: `undefined` only when name or description is unusable.
 * `allowedTools` accepts a space-separated string or a list (or, when `allowed-tools` is absent, spring-ai-alibaba's
 * `allowed_tools` / `allowedTools` or tama's `tools`); tama's `depends` becomes `dependencies`; keys outside the spec
 * go to `extra`.
 */
export function buildSkillMetadata(
  frontmatter: Record<string, unknown>,
  context: SkillMetadataContext,
): SkillMetadata | undefined {
  const usable = usableNameAndDescription(frontmatter);
  if (usable === undefined) return undefined;
  const metadata: SkillMetadata = {
    name: usable.name,
    description: usable.description,
    allowedTools: parseAllowedTools(frontmatter["allowed-tools"] ?? dialectAllowedTools(frontmatter)),
    extra: {},
    dir: context.dir,
    file: context.file,
    origin: context.origin,
    hash: context.hash,
    diagnostics: context.diagnostics,
  };
  if (typeof frontmatter.license === "string") metadata.license = frontmatter.license;
  if (typeof frontmatter.compatibility === "string") metadata.compatibility = frontmatter.compatibility;
  if (isPlainRecord(frontmatter.metadata)) metadata.metadata = frontmatter.metadata;
  const dependencies = dialectDependencies(frontmatter);
  if (dependencies) metadata.dependencies = dependencies;
  for (const [key, value] of Object.entries(frontmatter)) {
    if (!specFields.has(key))
      Object.defineProperty(metadata.extra, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return metadata;
}

/**
 * `allowed-tools` as a list. A string splits on whitespace and commas outside parentheses, so
 * `Read Bash(gh issue:*)` gives `["Read", "Bash(gh issue:*)"]` and `Bash, Write` gives `["Bash", "Write"]`;
 * a YAML list keeps its (string) entries.
 */
export function parseAllowedTools(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .filter((tool): tool is string => typeof tool === "string")
      .map((tool) => pyStrip(tool))
      .filter((tool) => tool !== "");
  if (typeof value !== "string") return [];
  const tools: string[] = [];
  let current = "";
  let depth = 0;
  for (const character of value) {
    if (character === "(") depth += 1;
    else if (character === ")" && depth > 0) depth -= 1;
    if (depth === 0 && (character === "," || /\s/u.test(character))) {
      if (current !== "") tools.push(current);
      current = "";
    } else {
      current += character;
    }
  }
  if (current !== "") tools.push(current);
  return tools;
}
