import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { dispatcherNote } from "./dispatcher-note.js";
import { loadedSkillBody } from "./loaded-skill-body.js";
import { bodyArtifact, fileArtifact, fileBlock, skillBlock } from "./skill-content.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** The request's messages, and the loaded skills none of whose read_skill results is among them any more. */
export interface MaterialisedMessages {
  messages: BaseMessage[];
  /** Loaded skills whose read_skill result left the history (trimmed, summarised, removed): their bodies must be restored. */
  missing: string[];
  /** Per loaded skill with a read_skill result: the docs its latest result selected that are still selected. */
  selectedDocs: Map<string, string[]>;
}

/**
 * Rewrites this agent's read_skill and read_skill_file results: the latest read_skill result of each loaded skill
 * gets the body (tool-result placement) and its selected reference files, earlier results of the same skill point to
 * it, file results are filled while their skill is loaded and the file still in its docs, and anything of an
 * unloaded skill becomes a short note. A request with no such results is returned as is.
 */
export async function materialiseMessages(context: EngineContext, messages: readonly BaseMessage[], state: AgentSkillsState, catalog: SkillCatalog, index: SkillToolIndex): Promise<MaterialisedMessages> {
  const { options, agentId, bodies } = context;
  const latest = new Map<string, number>();
  let files = 0;
  messages.forEach((message, position) => {
    const artifact = bodyArtifact(message);
    if (artifact && artifact.agentId === agentId) latest.set(artifact.skill, position);
    else if (fileArtifact(message)?.agentId === agentId) files++;
  });
  const missing = Object.keys(state.load.loaded).filter((name) => !latest.has(name)).sort();
  const selectedDocs = new Map<string, string[]>();
  for (const [skill, position] of latest) {
    const entry = state.load.loaded[skill];
    const chosen = bodyArtifact(messages[position]!)!.docs ?? [];
    if (entry) selectedDocs.set(skill, chosen.filter((path) => entry.docs.includes(path)));
  }
  if (latest.size === 0 && files === 0) return { messages: messages as BaseMessage[], missing, selectedDocs };
  const out: BaseMessage[] = [];
  for (const [position, message] of messages.entries()) {
    const body = bodyArtifact(message);
    const file = body ? undefined : fileArtifact(message);
    const skill = body?.skill ?? file?.skill;
    if (!skill || (body ?? file)!.agentId !== agentId) {
      out.push(message);
      continue;
    }
    const tool = message as ToolMessage;
    const entry = state.load.loaded[skill];
    let content: string;
    if (file) {
      if (!entry || !entry.docs.includes(file.path)) {
        content = `[File '${file.path}' of skill '${skill}' omitted: the skill is no longer loaded or the file left its selection. Call read_skill_file again if you need it.]`;
      } else if (options.bodyPlacement === "tool-result" && selectedDocs.get(skill)?.includes(file.path)) {
        content = `[File '${file.path}' of skill '${skill}': shown with the skill's instructions in its latest read_skill result.]`;
      } else {
        content = fileBlock(skill, file.path, await bodies.file(catalog, skill, file.path, options.maxFileBytes));
      }
    } else if (entry && latest.get(skill) !== position && options.bodyPlacement !== "system-prompt") {
      content = `[Skill '${skill}' instructions: see the later read_skill result of this skill.]`;
    } else if (!entry) {
      const why = catalog.has(skill) ? "it is no longer loaded" : "it was removed from the skill registry";
      content = `[Skill '${skill}' instructions omitted: ${why}. Call read_skill with {"name": "${skill}"} again if you need them.]`;
    } else if (options.bodyPlacement === "system-prompt") {
      content = String(tool.content);
    } else {
      const { body: text, changed } = await loadedSkillBody(bodies, options.onDrift, skill, body!.hash, catalog);
      const docs = await docBlocks(context, catalog, skill, selectedDocs.get(skill) ?? []);
      content = `${skillBlock(skill, text, changed)}${docs}\n\n${String(tool.content)}${dispatcherNote(options.toolExposure, skill, index)}`;
    }
    out.push(new ToolMessage({ content, tool_call_id: tool.tool_call_id, name: tool.name, id: tool.id, artifact: tool.artifact, status: tool.status }));
  }
  return { messages: out, missing, selectedDocs };
}

/** The selected reference files of a skill as blocks to append to its body ("" when none). */
export async function docBlocks(context: EngineContext, catalog: SkillCatalog, skill: string, paths: readonly string[]): Promise<string> {
  let text = "";
  for (const path of paths) text += `\n${fileBlock(skill, path, await context.bodies.file(catalog, skill, path, context.options.maxFileBytes))}`;
  return text;
}
