import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { buildCallSkillTool } from "../tools/call-skill-tool/index.js";
import { buildDisableSkillTool } from "../tools/disable-skill/index.js";
import { buildListSkillFilesTool } from "../tools/list-skill-files/index.js";
import { buildReadSkillTool } from "../tools/read-skill/index.js";
import { buildReadSkillFileTool } from "../tools/read-skill-file/index.js";
import { buildSearchSkillsTool } from "../tools/search-skills/index.js";

/** The model-facing skills tools for the visible skill `names` (disable_skill and call_skill_tool only when enabled). */
export function buildSkillsTools(names: string[], options: ResolvedSkillsRuntimeOptions): StructuredToolInterface[] {
  const threshold = options.enumThreshold;
  const skillsTools = [buildReadSkillTool(names, threshold), buildReadSkillFileTool(names, threshold), buildSearchSkillsTool(), buildListSkillFilesTool(names, threshold)];
  if (options.allowDisableSkill) skillsTools.push(buildDisableSkillTool(names, threshold));
  if (options.toolExposure === "dispatcher") skillsTools.push(buildCallSkillTool());
  return skillsTools;
}
