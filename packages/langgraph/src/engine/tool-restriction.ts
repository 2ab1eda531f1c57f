import type { SkillMetadata } from "../internal/core.js";
import type { SkillToolIndex } from "./skill-tool-index.js";
import { SKILLS_TOOL_NAMES } from "./skills-tool-names.js";

/** Lower-cased names allowed while a restricting skill is loaded (restrict mode), or undefined when unrestricted. */
export function toolRestriction(restrictTools: boolean, loaded: readonly SkillMetadata[], index: SkillToolIndex): Set<string> | undefined {
  if (!restrictTools) return undefined;
  const restricting = loaded.filter((skill) => index.declared.has(skill.name));
  if (restricting.length === 0) return undefined;
  const allowed = new Set<string>(SKILLS_TOOL_NAMES);
  for (const skill of restricting) for (const name of index.declared.get(skill.name)!) allowed.add(name);
  for (const skill of loaded) for (const tool of index.owned.get(skill.name) ?? []) allowed.add(tool.name.toLowerCase());
  return allowed;
}

/** Whether some loaded skill owns the tool `toolName`. */
export function ownedByLoaded(toolName: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): boolean {
  return loaded.some((skill) => (index.owned.get(skill.name) ?? []).some((tool) => tool.name === toolName));
}

/** The block reason for a tool outside the active skills' allowed-tools. */
export function restrictionReason(name: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): string {
  const active = loaded.filter((skill) => index.declared.has(skill.name)).map((skill) => `'${skill.name}'`);
  return `Tool '${name}' is not allowed while skill ${active.join(", ")} is active (its allowed-tools restrict the tools in use).`;
}
