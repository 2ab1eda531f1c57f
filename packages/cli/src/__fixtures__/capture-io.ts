import { PassThrough, Writable } from "node:stream";
import type { CliIO } from "../io/cli-io.js";

/** A CliIO whose output is collected into strings, for tests. */
export function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}): CliIO & { out(): string; err(): string } {
  let stdout = "";
  let stderr = "";
  const sink = (append: (chunk: string) => void) =>
    new Writable({
      write(chunk, _encoding, callback) {
        append(String(chunk));
        callback();
      },
    });
  return {
    stdout: sink((chunk) => (stdout += chunk)),
    stderr: sink((chunk) => (stderr += chunk)),
    stdin: new PassThrough(),
    env: { HOME: cwd, ...env },
    cwd,
    color: false,
    isTTY: false,
    out: () => stdout,
    err: () => stderr,
  };
}
