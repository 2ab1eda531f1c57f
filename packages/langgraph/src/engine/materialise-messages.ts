import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { dispatcherNote } from "./dispatcher-note.js";
import { loadedSkillBody } from "./loaded-skill-body.js";
import { bodyArtifact, skillBlock } from "./skill-content.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** Rewrites this agent's read_skill results: loaded bodies filled in (tool-result placement), unloaded ones replaced by a note. */
export async function materialiseMessages(context: EngineContext, messages: readonly BaseMessage[], state: AgentSkillsState, catalog: SkillCatalog, index: SkillToolIndex): Promise<BaseMessage[]> {
  const { options, agentId, bodies } = context;
  const out: BaseMessage[] = [];
  for (const message of messages) {
    const artifact = bodyArtifact(message);
    if (!artifact || artifact.agentId !== agentId) {
      out.push(message);
      continue;
    }
    const tool = message as ToolMessage;
    const entry = state.load.loaded[artifact.skill];
    let content: string;
    if (!entry) {
      const why = catalog.has(artifact.skill) ? "it is no longer loaded" : "it was removed from the skill registry";
      content = `[Skill '${artifact.skill}' instructions omitted: ${why}. Call read_skill with {"name": "${artifact.skill}"} again if you need them.]`;
    } else if (options.bodyPlacement === "system-prompt") {
      content = String(tool.content);
    } else {
      const { body, changed } = await loadedSkillBody(bodies, options.onDrift, artifact.skill, artifact.hash, catalog);
      content = `${skillBlock(artifact.skill, body, changed)}\n\n${String(tool.content)}${dispatcherNote(options.toolExposure, artifact.skill, index)}`;
    }
    out.push(new ToolMessage({ content, tool_call_id: tool.tool_call_id, name: tool.name, id: tool.id, artifact: tool.artifact, status: tool.status }));
  }
  return out;
}
