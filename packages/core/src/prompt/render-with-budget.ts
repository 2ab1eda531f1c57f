import type { SkillMetadata } from "../skill/skill-types.js";
import { MAX_DESCRIPTION_LENGTH } from "../skill/validate-frontmatter.js";
import { estimateTokens } from "./estimate-tokens.js";
import type { PromptSkillEntry, RenderedSkillsPrompt, RenderLevel, RenderReport } from "./prompt-types.js";
import type { PromptLayout } from "./prompt-layout.js";
import type { ResolvedRenderOptions } from "./resolve-render-options.js";
import { collapseWhitespace, shortenDescription } from "./shorten-description.js";

type Candidate = { text: string; shortened: string[] };

/**
 * Renders the skills list within the budget, degrading step by step: full descriptions; descriptions cut to the
 * largest per-skill cap that fits (not below `minDescriptionChars`); names only; then as many names as fit plus a
 * count of the others and a pointer to the search tool. Skills are sorted by name, so a set renders the same bytes
 * whatever its order. Every returned text was measured against the budget (unless `overBudget`).
 */
export function renderWithBudget(
  skills: readonly SkillMetadata[],
  settings: ResolvedRenderOptions,
): RenderedSkillsPrompt {
  const entries = sortedEntries(skills, settings.includeLocation, settings.groupByLayer);
  const { layout, preamble, searchToolName } = settings;
  const grouped = (lines: string[]) => (settings.groupByLayer ? withGroupLines(entries, lines, layout) : lines);
  const count = (text: string) => (settings.countTokens ?? estimateTokens)(text);
  const fits = (text: string) =>
    text.length <= settings.maxChars &&
    (settings.maxTokens === Number.POSITIVE_INFINITY || count(text) <= settings.maxTokens);
  const assemble = (block: string, note: string) => [preamble, block, note].filter((part) => part !== "").join("\n\n");
  const list = (lines: string[], namesOnly: boolean) =>
    [layout.open(namesOnly), ...grouped(lines), layout.close(namesOnly)].filter((line) => line !== "").join("\n");
  const finish = (
    text: string,
    level: RenderLevel,
    parts: Partial<RenderReport> = {},
    overBudget = false,
  ): RenderedSkillsPrompt => {
    const report: RenderReport = {
      level,
      total: entries.length,
      listed: entries.length,
      shortened: [],
      namesOnly: [],
      omitted: [],
      ...parts,
      chars: text.length,
      overBudget,
    };
    if (settings.measureTokens) report.tokens = count(text);
    return { text, report };
  };

  if (entries.length === 0) return finish("", "full");

  const full = assemble(list(entries.map(layout.skill), false), "");
  if (fits(full)) return finish(full, "full");

  const allNames = entries.map((entry) => entry.name);
  const nameLines = entries.map(layout.name);
  const searchHint = `call ${searchToolName} with a description of the task to find the right skill.`;
  const namesOnly = assemble(list(nameLines, true), `Descriptions are left out to fit the prompt: ${searchHint}`);
  const namesFit = fits(namesOnly);
  // With built-in layouts a list with descriptions contains more than the bare names list (without its note):
  // when that does not fit, no description cap can, and the cap search (the costly part) is skipped.
  const descriptionsMayFit = namesFit || !layout.namesAreShorter || fits(assemble(list(nameLines, true), ""));

  if (descriptionsMayFit) {
    const collapsed = entries.map((entry) => collapseWhitespace(entry.description));
    const short = largestFittingCut(collapsed, settings.minDescriptionChars, fits, (cap) => {
      const shortened: string[] = [];
      const lines = entries.map((entry, index) => {
        const cut = shortenDescription(entry.description, cap, collapsed[index]);
        if (cut.shortened) shortened.push(entry.name);
        return layout.skill(cut.shortened ? { ...entry, description: cut.text } : entry);
      });
      return { text: assemble(list(lines, false), ""), shortened };
    });
    if (short) return finish(short.text, "short-descriptions", { shortened: short.shortened });
  }
  if (namesFit) return finish(namesOnly, "names-only", { namesOnly: allNames });

  const partial = (listed: number) => {
    const rest = entries.length - listed;
    const note =
      listed === 0
        ? `${rest} ${plural(rest, "skill is", "skills are")} available but not listed here: ${searchHint}`
        : `${rest} more ${plural(rest, "skill is", "skills are")} not listed here: ${searchHint}`;
    return assemble(listed === 0 ? "" : list(nameLines.slice(0, listed), true), note);
  };
  // Largest number of names that fits (binary search; each candidate is measured on its real text).
  let low = 0;
  let high = entries.length - 1;
  let best = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (fits(partial(middle))) {
      best = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  const listed = Math.max(best, 0);
  return finish(
    partial(listed),
    "count-only",
    { listed, namesOnly: allNames.slice(0, listed), omitted: allNames.slice(listed) },
    best < 0,
  );
}

/** Largest description cap in [min, longest - 1] whose rendering fits, or undefined when even `min` does not. */
function largestFittingCut(
  collapsed: readonly string[],
  min: number,
  fits: (text: string) => boolean,
  render: (cap: number) => Candidate,
): Candidate | undefined {
  const longest = collapsed.reduce((max, text) => Math.max(max, text.length), 0);
  if (longest - 1 < min) return undefined;
  // A list far over budget usually fails at the smallest cap already: one render instead of a whole search.
  const smallest = render(min);
  if (!fits(smallest.text)) return undefined;
  let best = smallest;
  let low = min + 1;
  let high = longest - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = render(middle);
    if (fits(candidate.text)) {
      best = candidate;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}

/**
 * Entries as the model sees them: a description over the spec's 1 024 characters is cut (one skill must not take the
 * budget of all others), control characters in the location are replaced (a folder name must not add lines).
 */
function sortedEntries(
  skills: readonly SkillMetadata[],
  includeLocation: boolean,
  byLayer: boolean,
): PromptSkillEntry[] {
  const entries = skills.map((skill) => ({
    name: skill.name,
    description:
      skill.description.length > MAX_DESCRIPTION_LENGTH
        ? `${skill.description.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`
        : skill.description,
    location: includeLocation ? skill.file.replace(/\p{Cc}/gu, "?") : "",
    layer: skill.origin?.layer ?? "explicit",
  }));
  return entries.sort(
    (a, b) =>
      (byLayer ? LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer) : 0) ||
      compare(a.name, b.name) ||
      compare(a.location, b.location) ||
      compare(a.description, b.description),
  );
}

const LAYER_ORDER = ["user", "project", "explicit"];
const LAYER_TITLES: Record<string, string> = {
  user: "User skills",
  project: "Project skills",
  explicit: "Skills from other sources",
};

/** The lines of a (prefix of the) sorted list with a group line before the first skill of each layer. */
function withGroupLines(
  entries: readonly PromptSkillEntry[],
  lines: readonly string[],
  layout: PromptLayout,
): string[] {
  const out: string[] = [];
  lines.forEach((line, index) => {
    const layer = entries[index]!.layer;
    if (index === 0 || entries[index - 1]!.layer !== layer) {
      const heading = layout.group?.(layer, LAYER_TITLES[layer] ?? layer) ?? "";
      if (heading !== "") out.push(heading);
    }
    out.push(line);
  });
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
