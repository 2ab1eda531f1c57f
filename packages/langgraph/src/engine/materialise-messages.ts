import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { dispatcherNote } from "./dispatcher-note.js";
import { loadedSkillBody } from "./loaded-skill-body.js";
import { bodyArtifact, skillBlock } from "./skill-content.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** The request's messages, and the loaded skills none of whose read_skill results is among them any more. */
export interface MaterialisedMessages {
  messages: BaseMessage[];
  /** Loaded skills whose read_skill result left the history (trimmed, summarised, removed): their bodies must be restored. */
  missing: string[];
}

/**
 * Rewrites this agent's read_skill results: loaded bodies filled in (tool-result placement) in the latest result of
 * each skill, earlier results of the same skill pointing to it, unloaded ones replaced by a note.
 */
export async function materialiseMessages(context: EngineContext, messages: readonly BaseMessage[], state: AgentSkillsState, catalog: SkillCatalog, index: SkillToolIndex): Promise<MaterialisedMessages> {
  const { options, agentId, bodies } = context;
  const latest = new Map<string, number>();
  messages.forEach((message, position) => {
    const artifact = bodyArtifact(message);
    if (artifact && artifact.agentId === agentId) latest.set(artifact.skill, position);
  });
  const missing = Object.keys(state.load.loaded).filter((name) => !latest.has(name)).sort();
  if (latest.size === 0) return { messages: messages as BaseMessage[], missing };
  const out: BaseMessage[] = [];
  for (const [position, message] of messages.entries()) {
    const artifact = bodyArtifact(message);
    if (!artifact || artifact.agentId !== agentId) {
      out.push(message);
      continue;
    }
    const tool = message as ToolMessage;
    const entry = state.load.loaded[artifact.skill];
    let content: string;
    if (entry && latest.get(artifact.skill) !== position && options.bodyPlacement !== "system-prompt") {
      content = `[Skill '${artifact.skill}' instructions: see the later read_skill result of this skill.]`;
    } else if (!entry) {
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
  return { messages: out, missing };
}
