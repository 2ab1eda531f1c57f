// Tool running: the skills tools run against an agent state, and the ToolMessages that answer calls.
import { ToolMessage } from "@langchain/core/messages";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import { DISABLE_SKILL, runDisableSkill } from "../tools/disable-skill/index.js";
import { LIST_SKILL_FILES, runListSkillFiles } from "../tools/list-skill-files/index.js";
import { READ_SKILL_FILE, runReadSkillFile } from "../tools/read-skill-file/index.js";
import { READ_SKILL, runReadSkill } from "../tools/read-skill/index.js";
import { SEARCH_SKILLS, runSearchSkills } from "../tools/search-skills/index.js";
import type { SkillsToolContext, SkillsToolOutcome } from "../tools/skills-tool-context.js";
import type { EngineContext } from "./catalog-cache.js";
import { capEvictions, evictionEvents } from "./state-events.js";
import { applyAgentSkillsUpdate } from "../state/skills-state.js";
import type { EngineToolCall } from "./tool-gate.js";

/** Runs a skills tool call against this agent's state. */
export async function runSkillsTool(
  context: EngineContext,
  call: EngineToolCall,
  state: AgentSkillsState,
  catalog: SkillCatalog,
): Promise<SkillsToolOutcome> {
  const cache = context.versions.cacheFor(catalog);
  const toolContext: SkillsToolContext = {
    catalog,
    agentId: context.agentId,
    state,
    options: context.options,
    ownedTools: (skill) => cache.index.owned.get(skill) ?? [],
  };
  switch (call.name) {
    case READ_SKILL:
      return readSkill(context, call, toolContext);
    case READ_SKILL_FILE:
      return runReadSkillFile(call.args, toolContext);
    case SEARCH_SKILLS:
      return runSearchSkills(call.args, toolContext);
    case LIST_SKILL_FILES:
      return runListSkillFiles(call.args, toolContext);
    case DISABLE_SKILL:
      return runDisableSkill(call.args, toolContext);
    default:
      return { content: `Unknown skills tool '${call.name}'.`, status: "error" };
  }
}

/**
 * read_skill: caches the body and traces LRU evictions the load causes. A repeat load answers with the body again
 * (a fresh result that the request builder fills; earlier results of the skill then point to it) and a touch, so
 * re-reading always gives the model the instructions, even after the first result left the history.
 */
async function readSkill(
  context: EngineContext,
  call: EngineToolCall,
  toolContext: SkillsToolContext,
): Promise<SkillsToolOutcome> {
  const { state, catalog } = toolContext;
  const outcome = await runReadSkill(call.args, toolContext);
  const artifact = outcome.artifact?.kind === "skill-body" ? outcome.artifact : undefined;
  const hash = artifact?.hash;
  const name = artifact?.skill;
  if (name && hash) {
    await context.bodies.current(catalog, name, hash);
    const entry = state.load.loaded[name];
    if (entry && entry.hash === hash && context.options.bodyPlacement === "tool-result") {
      const content = outcome.content.replace(
        /^Skill '[^']*' loaded \(mode: [^)]*\)\./,
        `Skill '${name}' is already loaded (mode: ${entry.mode}); its instructions again:`,
      );
      const docEvents = (outcome.update?.events ?? []).filter(
        (event) => event.type === "doc" || event.type === "undoc",
      );
      return {
        content,
        artifact: outcome.artifact,
        update: { events: [{ type: "touch", name, seq: state.load.seq + 1 }, ...docEvents] },
      };
    }
    const chosen = policyEvictions(context, state, name);
    const loadEvents = outcome.update?.events ?? [];
    const withPolicy = applyAgentSkillsUpdate(state, {
      events: [...chosen.map((evicted) => unloadAt(evicted, state)), ...loadEvents],
    });
    // The cap is enforced here, as explicit unload events (least recently used first): the reducer reads no cap.
    const lru = capEvictions(withPolicy, context.options.maxLoadedSkills, [name]);
    const evicted = [...chosen, ...lru];
    if (evicted.length > 0)
      outcome.update = {
        ...outcome.update,
        events: [...evicted.map((skill) => unloadAt(skill, state)), ...loadEvents],
      };
    outcome.events = [
      ...(outcome.events ?? []),
      ...evictionEvents(state, applyAgentSkillsUpdate(state, outcome.update ?? {}), context.agentId),
    ];
  }
  return outcome;
}

function unloadAt(name: string, state: AgentSkillsState) {
  return { type: "unload" as const, name, seq: state.load.seq + 1 };
}

/** Skills the configured eviction policy unloads so that `incoming` fits under the cap (none without a policy). */
function policyEvictions(context: EngineContext, state: AgentSkillsState, incoming: string): string[] {
  const { evictionPolicy, maxLoadedSkills } = context.options;
  const loaded = Object.values(state.load.loaded).sort(
    (a, b) => a.loadedSeq - b.loadedSeq || (a.name < b.name ? -1 : 1),
  );
  if (!evictionPolicy || state.load.loaded[incoming] || loaded.length < maxLoadedSkills) return [];
  const picked = evictionPolicy({ loaded, incoming, maxLoadedSkills });
  if (!Array.isArray(picked)) return [];
  const names = new Set(loaded.map((entry) => entry.name));
  return [
    ...new Set(
      picked.filter((name): name is string => typeof name === "string" && name !== incoming && names.has(name)),
    ),
  ];
}

/** Load events recording that a loaded skill's tool was used (keeps it recent for the LRU cap). */
export function touchOwner(owner: string | undefined, state: AgentSkillsState): AgentSkillsUpdate | undefined {
  if (!owner || !state.load.loaded[owner]) return undefined;
  return { events: [{ type: "touch", name: owner, seq: state.load.seq + 1 }] };
}

/** The ToolMessage stored for a skills tool call (a read_skill result carries the body marker as its artifact). */
export function outcomeMessage(outcome: SkillsToolOutcome, call: { id?: string; name: string }): ToolMessage {
  return new ToolMessage({
    content: outcome.content,
    tool_call_id: call.id ?? "",
    name: call.name,
    status: outcome.status ?? "success",
    ...(outcome.artifact ? { artifact: { skillgraph: outcome.artifact } } : {}),
  });
}

/** The error ToolMessage answering a blocked call (the tool never runs). */
export function blockedMessage(reason: string, call: { id?: string; name: string }): ToolMessage {
  return new ToolMessage({ content: reason, tool_call_id: call.id ?? "", name: call.name, status: "error" });
}
