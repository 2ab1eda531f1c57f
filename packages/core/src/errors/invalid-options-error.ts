import { SkillgraphError } from "./skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.InvalidOptionsError");

/** Thrown by a factory when its options are invalid (checked once, before anything runs). */
export class InvalidOptionsError extends SkillgraphError {
  private readonly [marker] = true;
  /** The option at fault, e.g. `maxLoadedSkills`. */
  readonly option: string;
  readonly value: unknown;

  constructor({ option, value, message }: { option: string; value: unknown; message: string }) {
    super({ code: "invalid-options", message: `Invalid option '${option}': ${message}` });
    this.name = "InvalidOptionsError";
    this.option = option;
    this.value = value;
  }

  /** True when `error` is an InvalidOptionsError from any copy of this package. */
  static override isInstance(error: unknown): error is InvalidOptionsError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
