/** A user-facing failure (bad path, nothing found, unknown session): printed as one `error:` line, exit code 1. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, options: { exitCode?: number } = {}) {
    super(message);
    this.name = "CliError";
    this.exitCode = options.exitCode ?? 1;
  }

  /** Whether `value` is a CliError (also across module copies). */
  static isInstance(value: unknown): value is CliError {
    return value instanceof Error && value.name === "CliError" && typeof (value as CliError).exitCode === "number";
  }
}
