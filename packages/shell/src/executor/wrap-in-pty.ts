/** Quotes one argument for `/bin/sh` (single quotes; embedded quotes escaped). */
export function shellQuote(argument: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

/**
 * Wraps a command so it runs on a pseudo-terminal, using util-linux `script` (no native module needed): programs that
 * check `isatty` or print prompts only to terminals behave as for a person. Output then uses `\r\n` and echoes input.
 * @param scriptPath absolute path of `script`
 * @param command argv, as the command sees paths
 */
export function wrapInPty(scriptPath: string, command: readonly string[]): string[] {
  return [scriptPath, "--quiet", "--flush", "--return", "--command", command.map(shellQuote).join(" "), "/dev/null"];
}
