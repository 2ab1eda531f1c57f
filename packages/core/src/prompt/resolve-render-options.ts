import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { markdownLayout } from "./markdown-layout.js";
import type { PromptLayout } from "./prompt-layout.js";
import type { RenderSkillsPromptOptions } from "./prompt-types.js";
import { templateLayout } from "./template-layout.js";
import { xmlLayout } from "./xml-layout.js";

/** Default character budget when neither maxChars nor maxTokens is given. */
export const defaultMaxChars = 8000;

/** Render options with defaults filled in and checked. */
export interface ResolvedRenderOptions {
  layout: PromptLayout;
  maxChars: number;
  maxTokens: number;
  countTokens: ((text: string) => number) | undefined;
  /** Whether the report carries a token count. */
  measureTokens: boolean;
  preamble: string;
  readToolName: string;
  searchToolName: string;
  includeLocation: boolean;
  minDescriptionChars: number;
  groupByLayer: boolean;
}

/** Fills defaults and checks every option once; throws InvalidOptionsError naming the option. */
export function resolveRenderOptions(options: RenderSkillsPromptOptions = {}): ResolvedRenderOptions {
  const budget = options.budget ?? {};
  const limit = (option: string, value: number | undefined): number => {
    if (value === undefined) return Number.POSITIVE_INFINITY;
    if (typeof value !== "number" || Number.isNaN(value) || value < 1)
      throw new InvalidOptionsError({
        option,
        value,
        message: `must be a number >= 1 (or Infinity), got ${String(value)}`,
      });
    return value;
  };
  const bothUnset = budget.maxChars === undefined && budget.maxTokens === undefined;
  const maxChars = bothUnset ? defaultMaxChars : limit("budget.maxChars", budget.maxChars);
  const maxTokens = limit("budget.maxTokens", budget.maxTokens);
  if (budget.countTokens !== undefined && typeof budget.countTokens !== "function") {
    throw new InvalidOptionsError({
      option: "budget.countTokens",
      value: budget.countTokens,
      message: "must be a function (text) => number",
    });
  }
  const toolName = (option: string, value: string | undefined, fallback: string): string => {
    if (value === undefined) return fallback;
    if (typeof value !== "string" || value.trim() === "")
      throw new InvalidOptionsError({ option, value, message: "must be a non-empty string" });
    return value;
  };
  const readToolName = toolName("readToolName", options.readToolName, "read_skill");
  const minDescriptionChars = options.minDescriptionChars ?? 40;
  if (!Number.isInteger(minDescriptionChars) || minDescriptionChars < 8) {
    throw new InvalidOptionsError({
      option: "minDescriptionChars",
      value: minDescriptionChars,
      message: `must be an integer >= 8, got ${String(minDescriptionChars)}`,
    });
  }
  if (options.preamble !== undefined && options.preamble !== false && typeof options.preamble !== "string") {
    throw new InvalidOptionsError({
      option: "preamble",
      value: options.preamble,
      message: "must be a string or false",
    });
  }
  return {
    layout: layoutFor(options.format ?? "xml"),
    maxChars,
    maxTokens,
    countTokens: budget.countTokens,
    measureTokens: budget.maxTokens !== undefined || budget.countTokens !== undefined,
    preamble: options.preamble === false ? "" : (options.preamble ?? defaultPreamble(readToolName)),
    readToolName,
    searchToolName: toolName("searchToolName", options.searchToolName, "search_skills"),
    includeLocation: options.includeLocation ?? true,
    minDescriptionChars,
    groupByLayer: options.groupByLayer === true,
  };
}

/**
 * The default preamble: what skills are and how to load one, and (given a search tool's name) how to find one that is
 * not listed. `renderSkillsPrompt` uses it without the search sentence; @skillgraph/langgraph, which always offers
 * `search_skills`, with it.
 * @example defaultPreamble("read_skill", "search_skills")
 */
export function defaultPreamble(readToolName: string, searchToolName?: string): string {
  const search = searchToolName === undefined ? "" : ` Use ${searchToolName} when no listed skill fits.`;
  return `Skills are packaged instructions for specialised tasks. When a task matches a skill's description, call ${readToolName} with the skill's name and follow the instructions it returns.${search}`;
}

function layoutFor(format: RenderSkillsPromptOptions["format"]): PromptLayout {
  if (format === "xml") return xmlLayout;
  if (format === "markdown") return markdownLayout;
  if (typeof format === "object" && format !== null) return templateLayout(format);
  throw new InvalidOptionsError({
    option: "format",
    value: format,
    message: `must be "xml", "markdown" or a template object, got ${JSON.stringify(format)}`,
  });
}
