import { xmlSkillEntry } from "./xml-layout.js";

/**
 * The `<available_skills>` block exactly as skills-ref `to-prompt` prints it, without the trailing newline (the CLI
 * adds one when printing). Skills stay in argument order; name and description are HTML-escaped
 * (`html.escape(quote=True)`), the location is not. No budget: see renderSkillsPrompt for that.
 *
 * @param skills name, description and absolute SKILL.md path of each skill
 * @example
 * toPrompt([{ name: "pdf", description: "Read PDFs", location: "/skills/pdf/SKILL.md" }]);
 * // "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead PDFs\n</description>\n<location>\n/skills/pdf/SKILL.md\n</location>\n</skill>\n</available_skills>"
 */
export function toPrompt(skills: ReadonlyArray<{ name: string; description: string; location: string }>): string {
  const entries = skills.map((skill) => xmlSkillEntry(skill, { reference: true }));
  return ["<available_skills>", ...entries, "</available_skills>"].join("\n");
}
