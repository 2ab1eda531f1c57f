import path from "node:path";
import type { CommandCheckInput } from "./command-check-input.js";

/** Host path of a path-qualified executable: relative ones resolve in the skill folder (skill mode) or the cwd. */
export function scriptHostPath(typed: string, input: CommandCheckInput): string {
  if (path.isAbsolute(typed)) return path.normalize(typed);
  const base = input.mode === "skill" && input.skill?.dir ? input.skill.dir : path.resolve(input.workspaceDir, input.cwd ?? ".");
  return path.resolve(base, typed);
}
