// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type { SkillMetadata } from "@skillgraph/core";
export type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "@skillgraph/core/hooks";
export { InvalidOptionsError, SkillgraphError } from "@skillgraph/core";
export { integerMessage, integerOption, integerSchema, MAX_TIMER_MS, parseOptions } from "@skillgraph/core/errors";
export { SKILLS_STATE_KEY } from "@skillgraph/core/load-state";
export {
  isBinaryContent,
  isInsideFolder,
  nestedSkillFolder,
  splitRelativePath,
  withConfinedFolder,
} from "@skillgraph/core/safe-fs";
export type { SkillsStateValue } from "@skillgraph/core/load-state";
