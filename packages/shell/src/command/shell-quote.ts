// Quoting argv for /bin/sh: the pty wrapper's `script --command` line, and argv shown in messages and approval prompts.

const PLAIN = /^[A-Za-z0-9_./:=@%+,-]+$/;

/**
 * Quotes one argument for `/bin/sh`: plain words stay as they are, anything else (spaces, `$`, quotes, newlines, the
 * empty string) goes in single quotes with embedded `'` written as `'\''`. `sh -c` gets back exactly `argument`.
 * @example shellQuote("it's") // "'it'\\''s'"
 */
export function shellQuote(argument: string): string {
  return PLAIN.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

/** argv as one shell-quoted line (for `sh -c`, messages and approval prompts). */
export function describeArgv(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
