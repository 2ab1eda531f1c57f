// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type { SkillDriftPolicy, SkillCatalog, SkillFileEntry, SkillMetadata } from "@skillgraph/core";
export type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "@skillgraph/core/hooks";
export type {
  AgentSkillsState,
  SkillsStateValue,
  LoadMode,
  LoadedSkillEntry,
  SkillLoadEvent,
  SkillLoadState,
} from "@skillgraph/core/load-state";
export type { RenderSkillsPromptOptions } from "@skillgraph/core/prompt";
export type { SearchResult } from "@skillgraph/core";
export { SkillDriftError, InvalidOptionsError, SkillgraphError, SkillNotFoundError } from "@skillgraph/core";
export { SKILLS_STATE_KEY, applyLoadEvents, detectLoadedSkillDrift, emptyLoadState } from "@skillgraph/core/load-state";
export { createSkillsPromptRenderer } from "@skillgraph/core/prompt";
export { installHints } from "@skillgraph/core/skill";
