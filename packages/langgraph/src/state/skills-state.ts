import { Annotation } from "@langchain/langgraph";
import { applyLoadEvents, emptyLoadState } from "../internal/core.js";
import type { AgentSkillsState, SkillLoadEvent, SkillsStateValue } from "../internal/core.js";
import { SKILLS_STATE_KEY } from "../internal/core.js";
import { mergeAgentSkillsState, uniteDisabled } from "./merge-agent-skills-state.js";

// The channel's name and value shape are core's one contract (shared with @skillgraph/shell and @skillgraph/checkpoint).
export { SKILLS_STATE_KEY };
export type { AgentSkillsState, SkillsStateValue };

/**
 * One agent's update: load events applied in order, and names to disable. Plain data with no configuration: the cap
 * (`maxLoadedSkills`) is enforced by the writer, which emits the evictions as `unload` events.
 */
export interface AgentSkillsUpdate {
  events?: SkillLoadEvent[];
  disable?: string[];
}

/**
 * The channel update: agent id -> update (events merge, also in parallel) or a whole AgentSkillsState (a subgraph's
 * output, a restore), merged per field into that agent's entry: its load state by sequence number, its disabled skills
 * by union (see mergeAgentSkillsState).
 */
export type SkillsStateUpdate = Record<string, AgentSkillsUpdate | AgentSkillsState>;

/** A fresh agent state. */
export function emptyAgentSkillsState(): AgentSkillsState {
  return { load: emptyLoadState(), disabled: [] };
}

/** Reducer of the channel: merges per agent key, so parallel writers (Send, parallel tool calls) never collide. */
export function reduceSkillsState(
  current: SkillsStateValue | undefined,
  update: SkillsStateUpdate | undefined,
): SkillsStateValue {
  const base = current ?? {};
  if (!update) return base;
  const next: SkillsStateValue = { ...base };
  for (const [agentId, entry] of Object.entries(update)) {
    if (!entry) continue;
    if ("load" in entry && entry.load) {
      // A whole entry: each parallel branch of another agent writes back the copy of this agent's entry it started
      // from, so it must neither undo newer loads (the higher seq wins) nor a disable that raised no seq (union).
      next[agentId] = mergeAgentSkillsState(next[agentId], entry);
      continue;
    }
    next[agentId] = applyAgentSkillsUpdate(base[agentId] ?? emptyAgentSkillsState(), entry as AgentSkillsUpdate);
  }
  return next;
}

/**
 * One agent's update applied to its state: the events in order, disabled names united. No configuration is read (the
 * reducer needs none). The channel reducer and the engine's local view both use this, so they cannot disagree.
 */
export function applyAgentSkillsUpdate(previous: AgentSkillsState, change: AgentSkillsUpdate): AgentSkillsState {
  const load =
    change.events && change.events.length > 0 ? applyLoadEvents(previous.load, change.events).state : previous.load;
  const disabled =
    change.disable && change.disable.length > 0 ? uniteDisabled(previous.disabled, change.disable) : previous.disabled;
  return { load, disabled };
}

/**
 * The state fragment to spread into a hand-built graph's annotation.
 * @example const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skillsStateSpec });
 */
export const skillsStateSpec = {
  [SKILLS_STATE_KEY]: Annotation<SkillsStateValue, SkillsStateUpdate>({
    reducer: reduceSkillsState,
    default: () => ({}),
  }),
} as const;

/** The same fragment as an AnnotationRoot (what `createSkillsMiddleware` uses as its `stateSchema`). */
export const SkillsStateAnnotation = Annotation.Root(skillsStateSpec);

/**
 * The update that copies one agent's state out of a (sub)graph state into a parent graph, leaving other agents alone.
 * @example return { messages: [reply], ...pickAgentSkillsState(subgraphOutput, "researcher") };
 */
export function pickAgentSkillsState(state: unknown, agentId: string): { [SKILLS_STATE_KEY]: SkillsStateUpdate } {
  return { [SKILLS_STATE_KEY]: { [agentId]: readAgentSkillsState(state, agentId) } };
}

/** Reads one agent's state out of a graph state (empty when absent). */
export function readAgentSkillsState(state: unknown, agentId: string): AgentSkillsState {
  const value = (state as Record<string, unknown> | undefined)?.[SKILLS_STATE_KEY] as SkillsStateValue | undefined;
  return value?.[agentId] ?? emptyAgentSkillsState();
}
