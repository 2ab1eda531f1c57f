import { SkillgraphError, type LoadedSkillDrift } from "../internal/core.js";

/**
 * What to do when a loaded skill changed or disappeared on disk between a session's start and its resume:
 * - `reload` (default): load the current SKILL.md and tell the model it changed (or that a removed skill is gone);
 * - `keep`: leave the session as it is (the model keeps the body it already saw in its history);
 * - `fail`: refuse to resume (SkillDriftError).
 */
export type SkillDriftPolicy = "reload" | "keep" | "fail";

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

/** Thrown when a session is resumed under the `fail` drift policy and loaded skills changed on disk. */
export class SkillDriftError extends SkillgraphError {
  readonly drift: LoadedSkillDrift[];

  constructor(drift: LoadedSkillDrift[]) {
    super({ code: "skill-drift", message: `Loaded skills changed on disk since the session started: ${drift.map((d) => `${d.name} (${d.kind})`).join(", ")}` });
    this.name = "SkillDriftError";
    this.drift = drift;
  }
}

/** Applies a drift policy to detected drift; throws SkillDriftError under `fail` when there is any. */
export function resolveSkillDrift(drift: readonly LoadedSkillDrift[], policy: SkillDriftPolicy = defaultSkillDriftPolicy): SkillDriftResolution {
  if (drift.length > 0 && policy === "fail") throw new SkillDriftError([...drift]);
  if (policy === "keep" || drift.length === 0) return { reload: [], unload: [], keep: drift.map((d) => d.name), notice: undefined };
  const reload = drift.filter((d) => d.kind === "changed").map((d) => d.name);
  const unload = drift.filter((d) => d.kind === "removed").map((d) => d.name);
  const lines = [
    ...reload.map((name) => `Skill '${name}' changed on disk since it was loaded; its current instructions replace the earlier ones.`),
    ...unload.map((name) => `Skill '${name}' was removed from disk since it was loaded; do not rely on its instructions any more.`),
  ];
  return { reload, unload, keep: [], notice: lines.join("\n") };
}
