import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { SkillBodyArtifact, SkillFileArtifact } from "../tools/skills-tool-context.js";

/** The skill-body marker of a stored read_skill result, if `message` is one. */
export function bodyArtifact(message: BaseMessage): SkillBodyArtifact | undefined {
  if (message.getType() !== "tool") return undefined;
  const artifact = (message as ToolMessage).artifact as { skillgraph?: SkillBodyArtifact } | undefined;
  return artifact?.skillgraph?.kind === "skill-body" ? artifact.skillgraph : undefined;
}

/** How a skill body is shown to the model, with a note when it changed since it was loaded. */
export function skillBlock(name: string, body: string, changed: boolean): string {
  const note = changed ? `Note: skill '${name}' changed since it was loaded; these are its current instructions.\n` : "";
  return `<skill_content name="${name}">\n${note}${body.trim()}\n</skill_content>`;
}

/** The skill-file marker of a stored read_skill_file result, if `message` is one. */
export function fileArtifact(message: BaseMessage): SkillFileArtifact | undefined {
  if (message.getType() !== "tool") return undefined;
  const artifact = (message as ToolMessage).artifact as { skillgraph?: SkillFileArtifact } | undefined;
  return artifact?.skillgraph?.kind === "skill-file" ? artifact.skillgraph : undefined;
}

/** How a selected reference file is shown with its skill's instructions. */
export function fileBlock(skill: string, path: string, content: string): string {
  return `<skill_file skill="${skill}" path="${path}">\n${content.trimEnd()}\n</skill_file>`;
}
