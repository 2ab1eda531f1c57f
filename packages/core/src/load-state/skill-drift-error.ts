import type { LoadedSkillDrift } from "./load-state-types.js";
import { SkillgraphError } from "../errors/skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.SkillDriftError");

/** Thrown when loaded skills changed or vanished since they were loaded and the drift policy is `fail`. */
export class SkillDriftError extends SkillgraphError {
  private readonly [marker] = true;
  readonly drift: LoadedSkillDrift[];
  /** The first drifted skill (most callers have one). */
  readonly skillName: string;
  readonly kind: LoadedSkillDrift["kind"];
  /** The agent whose loaded skills drifted, when known. */
  readonly agentId: string | undefined;

  constructor({ drift, agentId }: { drift: readonly LoadedSkillDrift[]; agentId?: string }) {
    const list = drift.map((item) => `'${item.name}' (${item.kind})`).join(", ");
    super({
      code: "skill-drift",
      message: `Loaded skill${drift.length === 1 ? "" : "s"} ${list}${agentId ? ` of agent '${agentId}'` : ""} changed in the registry since loaded (drift policy: fail).`,
    });
    this.name = "SkillDriftError";
    this.drift = [...drift];
    this.skillName = drift[0]?.name ?? "";
    this.kind = drift[0]?.kind ?? "changed";
    this.agentId = agentId;
  }

  /** True when `error` is a SkillDriftError from any copy of this package. */
  static override isInstance(error: unknown): error is SkillDriftError {
    return SkillgraphError.hasMarker(error, marker);
  }
}

/** What happens when a loaded skill drifted: `reload` (serve the new body, tell the model), `keep` (serve what was loaded), `fail` (throw SkillDriftError). */
export type SkillDriftPolicy = "reload" | "keep" | "fail";
