import { z } from "zod";
import type { PromptLayout } from "./prompt-layout.js";
import type { PromptSkillEntry } from "./prompt-types.js";

const placeholder = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const known = new Set(["name", "description", "location", "layer"]);

type EntryText = (entry: PromptSkillEntry) => string;

/** A template text: a string whose placeholders are all known, or a function of the entry. */
function templateText(error = "must be a string or a function") {
  return z
    .union([z.string(), z.custom<EntryText>((value) => typeof value === "function")], { error })
    .superRefine((template, context) => {
      if (typeof template !== "string") return;
      for (const match of template.matchAll(placeholder))
        if (!known.has(match[1] as string))
          context.addIssue({
            code: "custom",
            input: template,
            message: `unknown placeholder '${match[0]}' (use {{name}}, {{description}}, {{location}}, {{layer}})`,
          });
    });
}

/** A custom template (`format: { skill, ... }`), defaults inside. */
export const promptTemplateSchema = z.object({
  skill: templateText(
    "a template needs `skill`: a string with {{name}}/{{description}}/{{location}}/{{layer}} or a function",
  ),
  name: templateText().default("- {{name}}"),
  header: z.string({ error: "must be a string" }).default(""),
  footer: z.string({ error: "must be a string" }).default(""),
  group: z.string({ error: "must be a string" }).default("{{title}}:"),
});

/** Builds a layout from a checked custom template. */
export function templateLayout(template: z.output<typeof promptTemplateSchema>): PromptLayout {
  const { header, footer, group } = template;
  const groupLine = (layer: string, title: string) =>
    group.replace(/\{\{\s*(layer|title)\s*\}\}/g, (_, key: string) => (key === "layer" ? layer : title));
  return {
    skill: compile(template.skill),
    name: compile(template.name),
    open: () => header,
    close: () => footer,
    group: groupLine,
  };
}

/** A template text as a function; one pass: values containing "{{name}}" are inserted literally, never expanded again. */
function compile(template: string | EntryText): EntryText {
  if (typeof template === "function") return template;
  return (entry) => template.replace(placeholder, (_, key: string) => entry[key as keyof PromptSkillEntry]);
}
