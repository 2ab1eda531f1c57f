import path from "node:path";
import type { CommandCheckInput } from "./command-check-input.js";
import { hasParentSegment, isInside } from "./confine-path.js";
import { refusal, type Refusal } from "./refusal.js";
import { scriptHostPath } from "./script-host-path.js";

/** Refuses a path-qualified executable unless it lies (lexically) inside the running skill's `scripts/` folder. */
export function checkScriptLocation(typed: string, input: CommandCheckInput): { ok: true } | Refusal {
  if (hasParentSegment(typed)) return refusal("path-traversal", `executable '${typed}' may not contain '..'`);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  if (!skillDir) return refusal("executable-outside-scripts", `'${typed}' is a path; only program names (resolved on a fixed PATH) run here, skill scripts run with run_skill_script`);
  const scripts = path.join(skillDir, "scripts");
  if (!isInside(scripts, scriptHostPath(typed, input)) || scriptHostPath(typed, input) === scripts) {
    return refusal("executable-outside-scripts", `'${typed}' is outside the skill's scripts/ folder; only its scripts and programs on the fixed PATH run`);
  }
  return { ok: true };
}
