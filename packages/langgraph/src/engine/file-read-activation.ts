// Skills read through a generic file tool (deepagents' `read_file`, Strands' `file_read`): a successful read of a
// listed skill's SKILL.md loads the skill as read_skill would (state entry, unlocked tools, events); the file's text
// the tool returned is the body the model sees.
import { isAbsolute, normalize, resolve } from "node:path";
import type { SkillsEvent } from "../events/skills-event.js";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import type { EngineContext } from "./catalog-cache.js";
import { capEvictions, evictionEvents } from "./state-events.js";
import { applyAgentSkillsUpdate } from "../state/skills-state.js";
import type { EngineToolCall } from "./tool-gate.js";

const PATH_KEYS = ["file_path", "path", "filePath", "file", "filename", "target_file"];

/** The visible skill whose SKILL.md a call of one of `fileReadTools` reads, compared as path strings (no file is touched). */
export function skillReadByFileTool(
  context: EngineContext,
  call: EngineToolCall,
  catalog: SkillCatalog,
): string | undefined {
  if (!context.options.fileReadTools.includes(call.name)) return undefined;
  const args = call.args as Record<string, unknown> | undefined;
  const raw = PATH_KEYS.map((key) => args?.[key]).find((value): value is string => typeof value === "string");
  if (raw === undefined || raw.length === 0 || raw.length > 4096 || raw.includes("\0")) return undefined;
  if (!/(^|[\\/])SKILL\.md$/i.test(raw)) return undefined;
  const target = isAbsolute(raw) ? normalize(raw) : resolve(raw);
  for (const skill of catalog.list()) if (skill.file !== "" && normalize(skill.file) === target) return skill.name;
  return undefined;
}

/** The state update and events of a skill read through a file tool: a load (or a touch when that version is loaded). */
export function fileReadLoad(
  context: EngineContext,
  name: string,
  state: AgentSkillsState,
  catalog: SkillCatalog,
): { update: AgentSkillsUpdate; events: SkillsEvent[] } | undefined {
  const skill = catalog.get(name);
  if (!skill) return undefined;
  const seq = state.load.seq + 1;
  if (state.load.loaded[name]?.hash === skill.hash)
    return { update: { events: [{ type: "touch", name, seq }] }, events: [] };
  const { options, agentId } = context;
  const mode = options.loadModes[name] ?? options.loadMode;
  const load = { type: "load" as const, name, mode, hash: skill.hash, seq };
  const over = capEvictions(applyAgentSkillsUpdate(state, { events: [load] }), options.maxLoadedSkills, [name]);
  const update: AgentSkillsUpdate = {
    events: [...over.map((evicted) => ({ type: "unload" as const, name: evicted, seq })), load],
  };
  const tools = (context.versions.cacheFor(catalog).index.owned.get(name) ?? []).map((tool) => tool.name);
  const events: SkillsEvent[] = [
    { type: "skill-loaded", agentId, skill: name, mode, hash: skill.hash },
    ...(tools.length > 0 ? [{ type: "tools-unlocked" as const, agentId, skill: name, tools }] : []),
    ...evictionEvents(state, applyAgentSkillsUpdate(state, update), agentId),
  ];
  return { update, events };
}
