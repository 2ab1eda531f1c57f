/** Shown instead of a URL the WHATWG parser rejects (it is never echoed: a raw password may be in it). */
export const UNPARSABLE_URL = "<unparsable URL, not shown: percent-encode @ / # ? : in the user name and password>";

/** Query parameters whose value is a secret (libpq/pg accept `?password=`, `?sslpassword=`, `?sslkey=`). */
const secretParameter = (name: string) =>
  ["pass", "secret", "key", "token"].some((word) => name.toLowerCase().includes(word));

/**
 * The URL with its password (and any secret-looking query value) replaced by `***`, safe to print in errors and logs.
 * Built from the parts the WHATWG URL parser returns, never by pattern-matching the raw text: a URL the parser rejects,
 * or whose path, query or fragment holds an `@` (a password with a raw `/`, `?` or `#` parses that way), is not shown.
 * Scheme-only targets without an authority (`sqlite:PATH`, `memory:`) are returned as they are.
 * @example redactUrl("postgres://bob:p%40ss@db:5432/app") // "postgres://bob:***@db:5432/app"
 */
export function redactUrl(url: string): string {
  if (typeof url !== "string") return UNPARSABLE_URL;
  if (url === "memory:" || url === "memory://" || (url.startsWith("sqlite:") && !url.startsWith("sqlite://")))
    return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return UNPARSABLE_URL;
  }
  if (parsed.pathname.includes("@") || parsed.search.includes("@") || parsed.hash !== "") return UNPARSABLE_URL;
  if (parsed.password !== "") parsed.password = "***";
  for (const name of [...parsed.searchParams.keys()]) if (secretParameter(name)) parsed.searchParams.set(name, "***");
  return parsed.href;
}
