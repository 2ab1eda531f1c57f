import type { PromptLayout } from "./prompt-layout.js";

/** A markdown bullet list under `## Available skills`; descriptions on one line (whitespace collapsed), location in backticks. */
export const markdownLayout: PromptLayout = {
  skill: (entry) => {
    const description = entry.description.replace(/\s+/g, " ").trim();
    const location = entry.location === "" ? "" : ` (\`${entry.location.replaceAll("`", "'")}\`)`;
    return `- **${entry.name}**${location}: ${description}`;
  },
  name: (entry) => `- ${entry.name}`,
  open: () => "## Available skills",
  close: () => "",
  group: (_layer, title) => `### ${title}`,
  namesAreShorter: true,
};
