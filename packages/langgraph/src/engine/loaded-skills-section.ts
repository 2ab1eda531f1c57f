import type { SkillCatalog, SkillMetadata } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { dispatcherNote } from "./dispatcher-note.js";
import { loadedSkillBody } from "./loaded-skill-body.js";
import { docBlocks } from "./materialise-messages.js";
import { skillBlock } from "./skill-content.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** The `<loaded_skills>` system-prompt section: loaded bodies in load order (bodyPlacement "system-prompt"). */
export async function loadedSkillsSection(context: EngineContext, state: AgentSkillsState, catalog: SkillCatalog, loaded: readonly SkillMetadata[], index: SkillToolIndex, selectedDocs: ReadonlyMap<string, readonly string[]>): Promise<string> {
  const entries = loaded.map((skill) => state.load.loaded[skill.name]!).sort((a, b) => a.loadedSeq - b.loadedSeq || (a.name < b.name ? -1 : 1));
  const { options, bodies } = context;
  const parts: string[] = [];
  for (const entry of entries) {
    const { body, changed } = await loadedSkillBody(bodies, options.onDrift, entry.name, entry.hash, catalog);
    const docs = await docBlocks(context, catalog, entry.name, selectedDocs.get(entry.name) ?? []);
    parts.push(skillBlock(entry.name, body, changed) + docs + dispatcherNote(options.toolExposure, entry.name, index));
  }
  return `<loaded_skills>\n${parts.join("\n")}\n</loaded_skills>`;
}

/**
 * The `<restored_skills>` system-prompt section: bodies of loaded skills whose read_skill result is no longer in the
 * request (history trimmed, summarised or removed), with every file in their docs, by name, so the bytes are the
 * same on every request.
 */
export async function restoredSkillsSection(context: EngineContext, state: AgentSkillsState, catalog: SkillCatalog, names: readonly string[], index: SkillToolIndex): Promise<string> {
  const { options, bodies } = context;
  const parts: string[] = [];
  for (const name of names) {
    const entry = state.load.loaded[name]!;
    const { body, changed } = await loadedSkillBody(bodies, options.onDrift, name, entry.hash, catalog);
    const docs = await docBlocks(context, catalog, name, entry.docs);
    parts.push(skillBlock(name, body, changed) + docs + dispatcherNote(options.toolExposure, name, index));
  }
  const intro = "These skills are still loaded, but their read_skill results are no longer in the conversation (history trimmed or summarised). Their instructions:";
  return `<restored_skills>\n${intro}\n${parts.join("\n")}\n</restored_skills>`;
}
