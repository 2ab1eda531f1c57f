import { existsSync } from "node:fs";
import path from "node:path";
import type { CommandPolicy } from "./command-policy.js";
import { hasParentSegment, isInside, realpathOfNearest } from "./confine-path.js";
import { refusal, type Refusal } from "./refusal.js";

/** Refuses an argument naming a path outside the roots (absolute, climbing with `..`, or through a symlink). */
export function checkArgumentPath(candidate: string, cwd: string, roots: readonly string[], policy: CommandPolicy): Refusal | undefined {
  if (candidate === "" || candidate.startsWith("-") && !candidate.includes("/")) return undefined;
  const absolute = path.isAbsolute(candidate);
  if (absolute) {
    const normalized = path.normalize(candidate);
    if (policy.readablePaths.some((allowed) => isInside(allowed, normalized))) return undefined;
    if (!roots.some((root) => isInside(root, realpathOfNearest(normalized)))) {
      return refusal("path-outside-workspace", `argument '${candidate}' names a path outside the workspace and the skill folder`);
    }
    return undefined;
  }
  const resolved = path.resolve(cwd, candidate);
  if (hasParentSegment(candidate) && !roots.some((root) => isInside(root, resolved))) {
    return refusal("path-traversal", `argument '${candidate}' climbs out of the workspace with '..'`);
  }
  if (!candidate.includes("/") && !existsSync(resolved)) return undefined;
  const real = realpathOfNearest(resolved);
  if (!roots.some((root) => isInside(root, real))) {
    return refusal("symlink-escape", `argument '${candidate}' leads outside the workspace through a symlink`);
  }
  return undefined;
}
