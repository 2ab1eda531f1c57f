import { escapeHtml } from "./escape-html.js";
import type { PromptLayout } from "./prompt-layout.js";
import type { PromptSkillEntry } from "./prompt-types.js";

/**
 * The reference `<available_skills>` entry: each tag on its own line, name, description and location HTML-escaped
 * (the reference prints the location raw; escaping it only changes paths containing `<`, `>`, `&` or quotes, which
 * could otherwise close the tag and inject text), location omitted when "". With `reference: true`, exactly what
 * skills-ref `to-prompt` prints (`toPrompt`): the location raw and always present.
 */
export function xmlSkillEntry(
  entry: Pick<PromptSkillEntry, "name" | "description" | "location">,
  options: { reference?: boolean } = {},
): string {
  const lines = [
    "<skill>",
    "<name>",
    escapeHtml(entry.name),
    "</name>",
    "<description>",
    escapeHtml(entry.description),
    "</description>",
  ];
  if (options.reference) lines.push("<location>", entry.location, "</location>");
  else if (entry.location !== "") lines.push("<location>", escapeHtml(entry.location), "</location>");
  lines.push("</skill>");
  return lines.join("\n");
}

/** The reference layout (skills-ref `to-prompt`), plus a compact `<available_skill_names>` block for names only. */
export const xmlLayout: PromptLayout = {
  skill: (entry) => xmlSkillEntry(entry),
  name: (entry) => escapeHtml(entry.name),
  open: (namesOnly) => (namesOnly ? "<available_skill_names>" : "<available_skills>"),
  namesAreShorter: true,
  group: (_layer, title) => `<!-- ${title} -->`,
  close: (namesOnly) => (namesOnly ? "</available_skill_names>" : "</available_skills>"),
};
