import { parseOptions } from "../internal/core.js";
import {
  skillsRuntimeOptionsSchema,
  type ResolvedSkillsRuntimeOptions,
  type SkillsRuntimeOptions,
} from "./skills-runtime-options.js";

export { DEFAULT_SKILLS_PREAMBLE } from "./skills-runtime-options.js";

/** Checks options once and fills in defaults (by `skillsRuntimeOptionsSchema`); throws InvalidOptionsError naming the option at fault. */
export function resolveOptions(options: SkillsRuntimeOptions): ResolvedSkillsRuntimeOptions {
  return parseOptions(skillsRuntimeOptionsSchema, options);
}
