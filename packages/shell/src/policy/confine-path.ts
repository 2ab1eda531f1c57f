import { realpathSync } from "node:fs";
import path from "node:path";

/** True when `target` is `root` or inside it (both absolute, normalized). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** True when a relative path has a `..` segment. */
export function hasParentSegment(candidate: string): boolean {
  return candidate.split(/[\\/]/).includes("..");
}

/** realpath, or undefined when the path does not exist. */
export function realpathOrUndefined(candidate: string): string | undefined {
  try {
    return realpathSync(candidate);
  } catch {
    return undefined;
  }
}

/** The real path of the deepest existing ancestor of `candidate` joined with the rest (resolves symlinked parents). */
export function realpathOfNearest(candidate: string): string {
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    const real = realpathOrUndefined(current);
    if (real !== undefined) return path.join(real, ...missing.reverse());
    const parent = path.dirname(current);
    if (parent === current) return candidate;
    missing.push(path.basename(current));
    current = parent;
  }
}
