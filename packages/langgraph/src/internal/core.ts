// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext, SkillDriftPolicy, LoadMode, LoadedSkillEntry, RenderSkillsPromptOptions, SearchResult, SkillCatalog, SkillFileEntry, SkillLoadEvent, SkillLoadState, SkillMetadata } from "@skillgraph/core";
export { SkillDriftError, installHints, applyLoadEvents, createSkillsPromptRenderer, detectLoadedSkillDrift, emptyLoadState, InvalidOptionsError, SkillgraphError, SkillNotFoundError } from "@skillgraph/core";
