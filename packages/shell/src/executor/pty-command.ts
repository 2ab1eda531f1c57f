import { resolveExecutable } from "../policy/program-resolution.js";
import { wrapInPty } from "./wrap-in-pty.js";

/**
 * The argv running `command` on a pseudo-terminal.
 * @throws Error when util-linux `script` is not installed
 */
export function ptyCommand(command: readonly string[]): string[] {
  const script = resolveExecutable("script");
  if (!script) throw new Error("pty: util-linux 'script' is not installed on /usr/local/bin:/usr/bin:/bin");
  return wrapInPty(script, command);
}
