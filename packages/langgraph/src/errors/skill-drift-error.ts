import { SkillgraphError } from "../internal/core.js";

/** Thrown before a model call when a loaded skill changed or vanished in the registry and `onDrift` is "fail". */
export class SkillDriftError extends SkillgraphError {
  readonly skillName: string;
  readonly kind: "changed" | "removed";
  readonly agentId: string;

  constructor({ skillName, kind, agentId }: { skillName: string; kind: "changed" | "removed"; agentId: string }) {
    super({ code: "skill-drift", message: `Skill '${skillName}' loaded by agent '${agentId}' was ${kind} in the registry since it was loaded (onDrift: "fail").` });
    this.name = "SkillDriftError";
    this.skillName = skillName;
    this.kind = kind;
    this.agentId = agentId;
  }
}
