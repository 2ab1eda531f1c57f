// @skillgraph/core/safe-fs (for integrations): race-free file work in folders a sandboxed command or a skill author
// controls (fd-based, no check-then-use), as @skillgraph/shell uses it.
export {
  openConfinedFolder,
  withConfinedFolder,
  splitRelativePath,
  confinedFolderIsRaceFree,
  type ConfinedFolder,
  type ConfinedEntry,
  type ConfinedFailure,
  type ConfinedFileRead,
  type ConfinedRefusal,
  type ConfinedReadOptions,
  type ConfinedListOptions,
} from "./safe-fs/confined-folder.js";
export { isInsideFolder } from "./safe-fs/is-inside-folder.js";
export { nestedSkillFolder } from "./registry/skill-resources.js";
export { isBinaryContent, TEXT_SNIFF_BYTES } from "./safe-fs/binary-content.js";
