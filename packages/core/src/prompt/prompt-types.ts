import type { SkillLayer } from "../skill/skill-types.js";

/** What a prompt template sees of one skill. */
export interface PromptSkillEntry {
  name: string;
  /** The description, possibly shortened (ending in "…") when the budget forced it. */
  description: string;
  /** Absolute path of SKILL.md; "" for a skill defined in code or when `includeLocation` is false. */
  location: string;
  /** The layer the skill came from: `user`, `project`, or `explicit` (packages, code, folders the app named). */
  layer: SkillLayer;
}

/** A custom layout: strings with `{{name}}`, `{{description}}`, `{{location}}`, `{{layer}}` placeholders (inserted raw, not escaped), or functions. */
export interface PromptTemplate {
  /** One skill with its description. */
  skill: string | ((entry: PromptSkillEntry) => string);
  /** One skill listed by name only (when descriptions do not fit). @default "- {{name}}" */
  name?: string | ((entry: PromptSkillEntry) => string);
  /** A line before the list. */
  header?: string;
  /** A line after the list. */
  footer?: string;
  /** With `groupByLayer`: the line opening each layer's group (`{{layer}}` and `{{title}}` placeholders). @default "{{title}}:" */
  group?: string;
}

/** Layout of the list: the reference `<available_skills>` XML (plus location), a markdown list, or your own template. */
export type PromptFormat = "xml" | "markdown" | PromptTemplate;

/** Size limit of the rendered text. Both limits apply when both are set. */
export interface PromptBudget {
  /** Most characters (UTF-16 code units, i.e. `text.length`). @default 8000 when neither limit is set */
  maxChars?: number;
  /** Most tokens, counted with `countTokens` (else estimated as ceil(chars / 4)). */
  maxTokens?: number;
  /** Counts tokens of a text, e.g. with js-tiktoken. Also fills `report.tokens`. */
  countTokens?: (text: string) => number;
}

/** Options of renderSkillsPrompt / createSkillsPromptRenderer. */
export interface RenderSkillsPromptOptions {
  /** @default "xml" */
  format?: PromptFormat;
  /** @default { maxChars: 8000 } */
  budget?: PromptBudget;
  /** Text before the list; `false` for none. @default a two-sentence note on calling `readToolName` */
  preamble?: string | false;
  /** Name of the tool that loads a skill, used in the default preamble. @default "read_skill" */
  readToolName?: string;
  /** Name of the search tool the text points to when skills are not listed. @default "search_skills" */
  searchToolName?: string;
  /** Put each skill's SKILL.md path in the list. @default true */
  includeLocation?: boolean;
  /** Shortest description cap tried before falling back to names only. @default 40 */
  minDescriptionChars?: number;
  /** List user skills, then project skills, then skills from other sources, each group under its own heading. @default false */
  groupByLayer?: boolean;
}

/** How far the list had to degrade to fit the budget. */
export type RenderLevel = "full" | "short-descriptions" | "names-only" | "count-only";

/** What the rendering left out. Every skill is listed in full, or named in `shortened`, `namesOnly` or `omitted`. */
export interface RenderReport {
  level: RenderLevel;
  /** Number of skills given. */
  total: number;
  /** Number of skills named in the text (with or without description). */
  listed: number;
  /** Skills whose description was cut (level `short-descriptions`). */
  shortened: string[];
  /** Skills listed by name without description (levels `names-only` and `count-only`). */
  namesOnly: string[];
  /** Skills not named in the text at all (level `count-only`); the text counts them and points to the search tool. */
  omitted: string[];
  /** `text.length`. */
  chars: number;
  /** Tokens of the text, when `budget.maxTokens` or `budget.countTokens` is set. */
  tokens?: number;
  /** True when even the smallest form (count only, no names) exceeds the budget; the text is that smallest form. */
  overBudget: boolean;
}

/** A rendered skills list and what was left out. */
export interface RenderedSkillsPrompt {
  text: string;
  report: RenderReport;
}
