// @skillgraph/core/load-state (for integrations): the pure load-state logic — which skills an agent has loaded, the
// events that change it, the reducer, drift detection — and the state channel key and shape every package shares.
export type {
  LoadMode,
  LoadedSkillEntry,
  SkillLoadState,
  SkillLoadEvent,
  SkillLoadJournal,
  LoadStateOptions,
} from "./load-state/load-state-types.js";
export { emptyLoadState } from "./load-state/empty-load-state.js";
export { applyLoadEvents } from "./load-state/apply-load-events.js";
export { createLoadStateReducer } from "./load-state/create-load-state-reducer.js";
export { loadedSkillNames } from "./load-state/loaded-skill-names.js";
export { nextSeq } from "./load-state/next-seq.js";
export { detectLoadedSkillDrift } from "./load-state/detect-loaded-skill-drift.js";
export { SKILLS_STATE_KEY, type AgentSkillsState, type SkillsStateValue } from "./load-state/skills-state-key.js";
