// The one place this package imports @skillgraph/core from, so a renamed core export is fixed here only.
export type { SkillMetadata, SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "@skillgraph/core";
export {
  integerOption,
  InvalidOptionsError,
  isBinaryContent,
  isInsideFolder,
  SkillgraphError,
  SKILLS_STATE_KEY,
  splitRelativePath,
  withConfinedFolder,
} from "@skillgraph/core";
export type { SkillsStateValue } from "@skillgraph/core";
