import { CALL_SKILL_TOOL } from "../tools/call-skill-tool/index.js";
import { DISABLE_SKILL } from "../tools/disable-skill/index.js";
import { LIST_SKILL_FILES } from "../tools/list-skill-files/index.js";
import { READ_SKILL } from "../tools/read-skill/index.js";
import { READ_SKILL_FILE } from "../tools/read-skill-file/index.js";
import { SEARCH_SKILLS } from "../tools/search-skills/index.js";

/** Names of every model-facing skills tool. */
export const SKILLS_TOOL_NAMES = [READ_SKILL, READ_SKILL_FILE, SEARCH_SKILLS, LIST_SKILL_FILES, DISABLE_SKILL, CALL_SKILL_TOOL] as const;

/** Whether `name` is one of the model-facing skills tools. */
export function isSkillsToolName(name: string): boolean {
  return (SKILLS_TOOL_NAMES as readonly string[]).includes(name);
}
