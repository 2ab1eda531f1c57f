// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export { SkillDriftError, InvalidOptionsError, SkillgraphError, createLoadStateReducer, detectLoadedSkillDrift, emptyLoadState } from "@skillgraph/core";
export type { SkillDriftPolicy, LoadedSkillDrift, LoadedSkillEntry, SkillCatalog, SkillLoadEvent, SkillLoadState, SkillMetadata } from "@skillgraph/core";
