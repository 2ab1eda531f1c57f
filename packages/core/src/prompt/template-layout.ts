import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { PromptLayout } from "./prompt-layout.js";
import type { PromptSkillEntry, PromptTemplate } from "./prompt-types.js";

const placeholder = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const known = new Set(["name", "description", "location", "layer"]);

/** Builds a layout from a custom template; checks string templates for unknown placeholders (InvalidOptionsError). */
export function templateLayout(template: PromptTemplate): PromptLayout {
  if (
    typeof template !== "object" ||
    template === null ||
    (typeof template.skill !== "string" && typeof template.skill !== "function")
  ) {
    throw new InvalidOptionsError({
      option: "format.skill",
      value: template,
      message: "a template needs `skill`: a string with {{name}}/{{description}}/{{location}}/{{layer}} or a function",
    });
  }
  const skill = compile(template.skill, "format.skill");
  const name = compile(template.name ?? "- {{name}}", "format.name");
  const header = template.header ?? "";
  const footer = template.footer ?? "";
  const group = template.group ?? "{{title}}:";
  if (typeof group !== "string")
    throw new InvalidOptionsError({ option: "format.group", value: group, message: "must be a string" });
  const groupLine = (layer: string, title: string) =>
    group.replace(/\{\{\s*(layer|title)\s*\}\}/g, (_, key: string) => (key === "layer" ? layer : title));
  return { skill, name, open: () => header, close: () => footer, group: groupLine };
}

function compile(
  template: string | ((entry: PromptSkillEntry) => string),
  option: string,
): (entry: PromptSkillEntry) => string {
  if (typeof template === "function") return template;
  if (typeof template !== "string")
    throw new InvalidOptionsError({ option, value: template, message: "must be a string or a function" });
  for (const match of template.matchAll(placeholder)) {
    if (!known.has(match[1] as string)) {
      throw new InvalidOptionsError({
        option,
        value: template,
        message: `unknown placeholder '${match[0]}' (use {{name}}, {{description}}, {{location}}, {{layer}})`,
      });
    }
  }
  // One pass: values containing "{{name}}" are inserted literally, never expanded again.
  return (entry) => template.replace(placeholder, (_, key: string) => entry[key as keyof PromptSkillEntry]);
}
