// `PLAIN_SEARCH=postings,frequencies,… node --import tsx --import ./bench/support/plain-search/register.mjs …`: the
// named parts of core's search index resolve to the plain-JavaScript versions kept here (arrays of numbers, Maps and
// Sets instead of typed arrays and code-unit hash tables). Used by bench/search-postings.ts to time both in the same
// run; nothing else loads it.
import { register } from "node:module";

register("./swap-search-hooks.mjs", import.meta.url, { data: { parts: process.env.PLAIN_SEARCH ?? "" } });
