import type { PromptSkillEntry } from "./prompt-types.js";

/** How one format lays out a list: entries with descriptions, entries by name only, and the lines around them. */
export interface PromptLayout {
  /** A skill with its (possibly shortened) description; may span several lines. */
  skill(entry: PromptSkillEntry): string;
  /** A skill by name only. */
  name(entry: PromptSkillEntry): string;
  /** Line(s) before the list ("" for none); `namesOnly` is true when entries carry no description. */
  open(namesOnly: boolean): string;
  /** Line(s) after the list ("" for none). */
  close(namesOnly: boolean): string;
  /** The line opening one layer's group (`groupByLayer`); `title` is e.g. "User skills". */
  group?(layer: string, title: string): string;
  /** True when the names-only list (open, names, close) is always shorter than the list with descriptions: lets the budget skip a hopeless level. */
  namesAreShorter?: boolean;
}
