import { isAbsolute, resolve } from "node:path";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { redactUrl, UNPARSABLE_URL } from "./redact-url.js";

/** A checkpointer URL taken apart. */
export type CheckpointerTarget =
  | { kind: "memory" }
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; connectionString: string; schema: string };

/** Parses `memory:`, `sqlite:PATH` (relative to `cwd`; `sqlite::memory:` for an in-memory database) or `postgres://…[?schema=NAME]`. */
export function parseCheckpointerUrl(url: string, cwd: string): CheckpointerTarget {
  const shown = redactUrl(url);
  if (typeof url !== "string" || url.trim() === "") {
    throw new CheckpointerError({
      url: String(url),
      reason: "invalid-url",
      message: "Checkpointer URL is empty: use sqlite:PATH, postgres://USER@HOST/DB or memory:.",
    });
  }
  if (url === "memory:" || url === "memory://") return { kind: "memory" };
  if (url.startsWith("sqlite:")) {
    const rest = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (rest === "")
      throw new CheckpointerError({
        url: shown,
        reason: "invalid-url",
        message: `Checkpointer URL '${shown}' has no database path (e.g. sqlite:.skillgraph/sessions.db).`,
      });
    if (rest === ":memory:") return { kind: "sqlite", path: ":memory:" };
    return { kind: "sqlite", path: isAbsolute(rest) ? rest : resolve(cwd, rest) };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // No `cause`: the parser's TypeError carries the raw URL (`input`), password included.
      throw new CheckpointerError({
        url: shown,
        reason: "invalid-url",
        message: `Checkpointer URL is not a valid PostgreSQL URL (${shown}).`,
      });
    }
    if (shown === UNPARSABLE_URL) {
      throw new CheckpointerError({
        url: shown,
        reason: "invalid-url",
        message: `Checkpointer URL is ambiguous: an '@' after the host (${shown}).`,
      });
    }
    const schema = parsed.searchParams.get("schema") ?? "public";
    if (!/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(schema)) {
      throw new CheckpointerError({
        url: shown,
        reason: "invalid-url",
        message: `Checkpointer URL '${shown}': schema '${schema}' is not a plain SQL identifier.`,
      });
    }
    parsed.searchParams.delete("schema");
    return { kind: "postgres", connectionString: parsed.toString(), schema };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new CheckpointerError({
    url: shown,
    reason: "unknown-scheme",
    message: `Checkpointer URL '${shown}' has ${scheme ? `unknown scheme '${scheme}:'` : "no scheme"}: use sqlite:PATH, postgres://USER@HOST/DB or memory:.`,
  });
}
