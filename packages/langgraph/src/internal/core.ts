// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type { LoadMode, LoadedSkillEntry, RenderSkillsPromptOptions, SearchResult, SkillCatalog, SkillFileEntry, SkillLoadEvent, SkillLoadState, SkillMetadata } from "@skillgraph/core";
export { applyLoadEvents, createSkillsPromptRenderer, detectLoadedSkillDrift, emptyLoadState, InvalidOptionsError, SkillgraphError, SkillNotFoundError } from "@skillgraph/core";
