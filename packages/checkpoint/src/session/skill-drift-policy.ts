import { SkillDriftError, type LoadedSkillDrift, type SkillDriftPolicy } from "../internal/core.js";

export { SkillDriftError, type SkillDriftPolicy };

/** The drift policy used when none is given. */
export const defaultSkillDriftPolicy: SkillDriftPolicy = "reload";

/** What to do with each drifted skill under a policy. */
export interface SkillDriftResolution {
  /** Skills to load again from the registry (changed on disk). */
  reload: string[];
  /** Skills to drop from the load state (removed from disk). */
  unload: string[];
  /** Skills left as they are. */
  keep: string[];
  /** A note for the model, when something changed under it; undefined when there is nothing to say. */
  notice: string | undefined;
}

/** Applies a drift policy to detected drift; throws SkillDriftError under `fail` when there is any. */
export function resolveSkillDrift(drift: readonly LoadedSkillDrift[], policy: SkillDriftPolicy = defaultSkillDriftPolicy): SkillDriftResolution {
  if (drift.length > 0 && policy === "fail") throw new SkillDriftError({ drift });
  if (policy === "keep" || drift.length === 0) return { reload: [], unload: [], keep: drift.map((d) => d.name), notice: undefined };
  const reload = drift.filter((d) => d.kind === "changed").map((d) => d.name);
  const unload = drift.filter((d) => d.kind === "removed").map((d) => d.name);
  const lines = [
    ...reload.map((name) => `Skill '${name}' changed on disk since it was loaded; its current instructions replace the earlier ones.`),
    ...unload.map((name) => `Skill '${name}' was removed from disk since it was loaded; do not rely on its instructions any more.`),
  ];
  return { reload, unload, keep: [], notice: lines.join("\n") };
}
