// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export { InvalidOptionsError, SkillgraphError } from "@skillgraph/core";
export { integerMessage, integerOption, integerSchema, MAX_TIMER_MS, parseOptions } from "@skillgraph/core/errors";
export {
  SKILLS_STATE_KEY,
  createLoadStateReducer,
  detectLoadedSkillDrift,
  emptyLoadState,
} from "@skillgraph/core/load-state";
export type { LoadedSkillDrift, SkillCatalog } from "@skillgraph/core";
export type { AgentSkillsState, LoadedSkillEntry, SkillLoadEvent, SkillLoadState } from "@skillgraph/core/load-state";
