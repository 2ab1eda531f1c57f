/** Renders argv as a shell-quoted line for messages and approval prompts. */
export function describeArgv(argv: readonly string[]): string {
  return argv.map((part) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(part) ? part : `'${part.replaceAll("'", "'\\''")}'`)).join(" ");
}
