// @skillgraph/core/sources: the contract for writing your own skill source (what `scan()` returns) and the folder
// lists the conventional sources read. The ready-made sources are exported from the root entry.
export type {
  SkillCandidate,
  DiskSkillCandidate,
  CodeSkillCandidate,
  RemoteSkillCandidate,
  SourceScan,
  FileIdentity,
} from "./sources/skill-source.js";
export { PROJECT_SKILL_FOLDERS, USER_SKILL_FOLDERS } from "./sources/conventional-sources.js";
