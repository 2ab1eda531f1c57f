import { z } from "zod";
import { booleanSchema } from "../errors/option-schemas.js";
import { parseOptions } from "../errors/parse-options.js";
import { markdownLayout } from "./markdown-layout.js";
import type { PromptLayout } from "./prompt-layout.js";
import type { RenderSkillsPromptOptions } from "./prompt-types.js";
import { promptTemplateSchema, templateLayout } from "./template-layout.js";
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

/** A character or token limit: a number >= 1 (Infinity included, which zod's number refuses). */
const limitSchema = z.custom<number>((value) => typeof value === "number" && value >= 1, {
  error: (issue) => `must be a number >= 1 (or Infinity), got ${String(issue.input)}`,
});

/** A tool's name. */
const toolNameSchema = z.string({ error: "must be a non-empty string" }).refine((value) => value.trim() !== "", {
  error: "must be a non-empty string",
});

const formatError = (issue: { input?: unknown }) =>
  `must be "xml", "markdown" or a template object, got ${JSON.stringify(issue.input)}`;

/** The render options as one schema, defaults inside (the character budget's default depends on both limits). */
export const renderOptionsSchema = z.object({
  format: z
    .union([z.literal("xml"), z.literal("markdown"), promptTemplateSchema], { error: formatError })
    .default("xml"),
  budget: z
    .object({
      maxChars: limitSchema.optional(),
      maxTokens: limitSchema.optional(),
      countTokens: z
        .custom<(text: string) => number>((value) => typeof value === "function", {
          error: "must be a function (text) => number",
        })
        .optional(),
    })
    .default({}),
  preamble: z.union([z.string(), z.literal(false)], { error: "must be a string or false" }).optional(),
  readToolName: toolNameSchema.default("read_skill"),
  searchToolName: toolNameSchema.default("search_skills"),
  includeLocation: booleanSchema().default(true),
  minDescriptionChars: z
    .int({ error: (issue) => `must be an integer >= 8, got ${String(issue.input)}` })
    .min(8, { error: (issue) => `must be an integer >= 8, got ${String(issue.input)}` })
    .default(40),
  groupByLayer: booleanSchema().default(false),
});

/** Fills defaults and checks every option once; throws InvalidOptionsError naming the option. */
export function resolveRenderOptions(options: RenderSkillsPromptOptions = {}): ResolvedRenderOptions {
  const checked = parseOptions(renderOptionsSchema, options);
  const { budget, readToolName } = checked;
  const bothUnset = budget.maxChars === undefined && budget.maxTokens === undefined;
  return {
    layout:
      checked.format === "xml"
        ? xmlLayout
        : checked.format === "markdown"
          ? markdownLayout
          : templateLayout(checked.format),
    maxChars: bothUnset ? defaultMaxChars : (budget.maxChars ?? Number.POSITIVE_INFINITY),
    maxTokens: budget.maxTokens ?? Number.POSITIVE_INFINITY,
    countTokens: budget.countTokens,
    measureTokens: budget.maxTokens !== undefined || budget.countTokens !== undefined,
    preamble: checked.preamble === false ? "" : (checked.preamble ?? defaultPreamble(readToolName)),
    readToolName,
    searchToolName: checked.searchToolName,
    includeLocation: checked.includeLocation,
    minDescriptionChars: checked.minDescriptionChars,
    groupByLayer: checked.groupByLayer,
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
