// LangChain's OpenAI models count tokens of a streamed call with tiktoken ranks fetched from tiktoken.pages.dev; this
// machine reaches no such host, and each failed fetch is retried with backoff for about a minute. This serves those
// requests from js-tiktoken's bundled ranks (the same JSON the host serves) and passes every other request through.
import { createRequire } from "node:module";

const RANKS_URL = /^https:\/\/tiktoken\.pages\.dev\/js\/([a-z0-9_]+)\.json$/;
const require = createRequire(import.meta.url);

/** Serves tiktoken's rank files from js-tiktoken's copies until the returned function restores `fetch`. */
export function serveTiktokenRanksOffline(): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const encoding = RANKS_URL.exec(url)?.[1];
    if (!encoding) return original(input, init);
    const ranks = require(`js-tiktoken/ranks/${encoding}`) as { default?: unknown };
    return new Response(JSON.stringify(ranks.default ?? ranks), { headers: { "content-type": "application/json" } });
  };
  return () => {
    globalThis.fetch = original;
  };
}
