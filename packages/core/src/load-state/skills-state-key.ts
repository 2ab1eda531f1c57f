import type { SkillLoadState } from "./load-state-types.js";

/** Name of the graph state channel holding every agent's skill state (the interceptor, the middleware, sessions). */
export const SKILLS_STATE_KEY = "skillgraph";

/** One agent's skill state on one thread: what is loaded (names, modes, seqs, hashes, docs; never bodies) and what it disabled. */
export interface AgentSkillsState {
  load: SkillLoadState;
  /** Skills this agent disabled on this thread (`disable_skill`). */
  disabled: string[];
}

/** The value of the `SKILLS_STATE_KEY` channel: agent id -> that agent's state. */
export type SkillsStateValue = Record<string, AgentSkillsState>;
