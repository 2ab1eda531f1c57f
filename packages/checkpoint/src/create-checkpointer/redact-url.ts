/** The URL with any password replaced by `***`, safe to print in errors and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)([^@/?#]*)@/i, (_match, head: string) => `${head}***@`);
}
