import { describeArgv } from "../command/shell-quote.js";

/**
 * Wraps a command so it runs on a pseudo-terminal, using util-linux `script` (no native module needed): programs that
 * check `isatty` or print prompts only to terminals behave as for a person. Output then uses `\r\n` and echoes input.
 * @param scriptPath absolute path of `script`
 * @param command argv, as the command sees paths
 */
export function wrapInPty(scriptPath: string, command: readonly string[]): string[] {
  return [scriptPath, "--quiet", "--flush", "--return", "--command", describeArgv(command), "/dev/null"];
}
