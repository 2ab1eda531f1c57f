// @skillgraph/core/skill: lower-level SKILL.md reading — one file or a text, size limits, install hints. Apps usually
// need only loadSkill / validateSkill / readSkillProperties from the root entry.
export {
  loadSkillFile,
  loadSkillFromText,
  type LoadSkillFromTextOptions,
  type LoadedSkillFile,
} from "./skill/load-skill.js";
export { DEFAULT_MAX_SKILL_MD_BYTES } from "./skill/read-skill-file.js";
export { installHints } from "./skill/frontmatter-dialects.js";
export type { SkillFileIdentity } from "./skill/skill-file-identity.js";
