import { resolveExecutable } from "../policy/program-resolution.js";
import { requiredBinaries, type RequirementSource } from "./required-binaries.js";

/** Result of {@link missingRequirements}: what the skill needs and which of those are missing. */
export interface RequirementsCheck {
  required: string[];
  missing: string[];
}

/**
 * Which of the programs a skill declares are not on the fixed PATH.
 * @param skill the skill's metadata
 * @param fixedPath PATH to look in
 */
export function missingRequirements(skill: RequirementSource, fixedPath: string): RequirementsCheck {
  const required = requiredBinaries(skill);
  return { required, missing: required.filter((name) => resolveExecutable(name, fixedPath) === undefined) };
}
