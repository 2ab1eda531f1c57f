import { SkillgraphError } from "../internal/core.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { wrapInPty } from "./wrap-in-pty.js";

/**
 * The argv running `command` on a pseudo-terminal.
 * @throws SkillgraphError (`pty-unavailable`) when util-linux `script` is not installed
 */
export function ptyCommand(command: readonly string[]): string[] {
  const script = resolveExecutable("script");
  if (!script)
    throw new SkillgraphError({
      code: "pty-unavailable",
      message: "pty: util-linux 'script' is not installed on /usr/local/bin:/usr/bin:/bin",
    });
  return wrapInPty(script, command);
}
