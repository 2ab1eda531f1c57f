import type { BaseStore } from "@langchain/langgraph";
import { guardPostgresPool, redactUrl } from "@skillgraph/checkpoint";
import { UsageError } from "../io/usage-error.js";

/**
 * Opens the LangGraph store a `--store URL` names: `postgres://` / `postgresql://` is a `PostgresStore` (tables created
 * when missing; `?schema=NAME` picks the schema). Returns the store and how to close it. Messages show the URL only
 * through `redactUrl` (no password).
 */
export async function openSkillStore(url: string): Promise<{ store: BaseStore; close(): Promise<void> }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Never the raw text: a password with a raw `/` or `#` is what makes the parser refuse it.
    throw new UsageError(`--store: not a URL: ${redactUrl(url)}`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new UsageError(`--store: unsupported store '${parsed.protocol}' (use postgres://...)`);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  parsed.searchParams.delete("schema");
  const { PostgresStore } = await import("@langchain/langgraph-checkpoint-postgres/store");
  // Guarded: a server restart or idle cut must not kill a long-running chat or server (the next read reconnects).
  const store = guardPostgresPool(
    PostgresStore.fromConnString(parsed.toString(), schema === undefined ? {} : { schema }),
  );
  await store.setup();
  return { store, close: () => store.stop() };
}
