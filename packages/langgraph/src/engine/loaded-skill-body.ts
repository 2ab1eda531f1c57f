import type { SkillCatalog } from "../internal/core.js";
import type { DriftPolicy } from "../options/skills-runtime-options.js";
import type { BodyCache } from "./body-cache.js";

/** The body to show for a loaded skill under the drift policy (`keep`: the recorded version when cached), and whether it changed. */
export async function loadedSkillBody(bodies: BodyCache, onDrift: DriftPolicy, name: string, recordedHash: string, catalog: SkillCatalog): Promise<{ body: string; changed: boolean }> {
  const current = catalog.get(name);
  if (onDrift === "keep") {
    const kept = bodies.peek(name, recordedHash);
    if (kept !== undefined) return { body: kept, changed: false };
  }
  const hash = current?.hash ?? recordedHash;
  return { body: await bodies.current(catalog, name, hash), changed: hash !== recordedHash && onDrift === "reload" };
}
