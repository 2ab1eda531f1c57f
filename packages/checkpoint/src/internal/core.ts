// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export {
  integerOption,
  InvalidOptionsError,
  SkillgraphError,
  SKILLS_STATE_KEY,
  createLoadStateReducer,
  detectLoadedSkillDrift,
  emptyLoadState,
} from "@skillgraph/core";
export type {
  AgentSkillsState,
  LoadedSkillDrift,
  LoadedSkillEntry,
  SkillCatalog,
  SkillLoadEvent,
  SkillLoadState,
} from "@skillgraph/core";
