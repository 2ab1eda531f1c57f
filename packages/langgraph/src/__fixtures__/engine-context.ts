import { BodyCache, collectServedTools, VersionCaches, type EngineContext } from "../engine/catalog-cache.js";
import { HistoryIndex } from "../repair/history-index.js";
import { resolveOptions } from "../options/resolve-options.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { emptyAgentSkillsState, type AgentSkillsState } from "../state/skills-state.js";
import { applyAgentSkillsUpdate } from "../state/skills-state.js";
import { createTestRegistry, createTestTools } from "./test-skills.js";

/** An engine context over the test registry, and a helper loading skills into an agent state. */
export async function engineContext(options: Partial<SkillsRuntimeOptions> = {}) {
  const registry = await createTestRegistry();
  const tools = createTestTools();
  const resolved = resolveOptions({ skills: registry, tools: [tools.makePdf], ...options });
  const { servedTools, hookTools } = collectServedTools(resolved);
  const context: EngineContext = { options: resolved, agentId: resolved.agentId, versions: new VersionCaches(resolved), bodies: new BodyCache(), hookTools, servedTools, requestHistory: new HistoryIndex(), threadHistory: new HistoryIndex() };
  const load = (names: string[], state: AgentSkillsState = emptyAgentSkillsState()) =>
    applyAgentSkillsUpdate(state, { events: names.map((name) => ({ type: "load" as const, name, mode: "session" as const, hash: registry.get(name)!.hash, seq: state.load.seq + 1 })) });
  return { registry, tools, context, load };
}
