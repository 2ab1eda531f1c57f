// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type {
  SkillDependencies,
  SkillDriftPolicy,
  SearchResult,
  SkillCatalog,
  SkillFileEntry,
  SkillMetadata,
} from "@skillgraph/core";
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
export {
  SkillDriftError,
  InvalidOptionsError,
  SkillgraphError,
  SkillNotFoundError,
  SkillLoadError,
} from "@skillgraph/core";
export { integerMessage, integerOption, integerSchema, MAX_TIMER_MS, parseOptions } from "@skillgraph/core/errors";
export { SKILLS_STATE_KEY, applyLoadEvents, detectLoadedSkillDrift, emptyLoadState } from "@skillgraph/core/load-state";
export { createSkillsPromptRenderer, defaultPreamble, escapeHtml } from "@skillgraph/core/prompt";
export { installHints } from "@skillgraph/core/skill";
