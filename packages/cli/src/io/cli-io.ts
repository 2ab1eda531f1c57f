import type { Readable, Writable } from "node:stream";

/** The process surface a command uses; tests pass their own streams and env. */
export interface CliIO {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether to print ANSI colours (a TTY without NO_COLOR, or FORCE_COLOR). */
  color: boolean;
  /** Whether stdout is an interactive terminal. */
  isTTY: boolean;
}

/** A command: parses its own arguments and returns the exit code (0 ok, 1 failure, 2 usage error). */
export type CommandRun = (args: string[], io: CliIO) => Promise<number>;

/** The CliIO of the current process. */
export function processIO(): CliIO {
  const isTTY = Boolean(process.stdout.isTTY);
  const env = process.env;
  const color = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0" ? true : isTTY && env.NO_COLOR === undefined;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env,
    cwd: process.cwd(),
    color,
    isTTY,
  };
}
