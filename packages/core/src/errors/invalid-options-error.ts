import { SkillgraphError } from "./skillgraph-error.js";

/** Thrown by a factory when its options are invalid (checked once, before anything runs). */
export class InvalidOptionsError extends SkillgraphError {
  /** The option at fault, e.g. `maxLoadedSkills`. */
  readonly option: string;
  readonly value: unknown;

  constructor({ option, value, message }: { option: string; value: unknown; message: string }) {
    super({ code: "invalid-options", message: `Invalid option '${option}': ${message}` });
    this.name = "InvalidOptionsError";
    this.option = option;
    this.value = value;
  }
}
