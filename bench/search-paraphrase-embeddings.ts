// Paraphrase requests of every labelled set, ranked four ways over the shared corpus through a real registry:
// lexical, lexical with the independent writer's rewrites, fused with embeddings, and fused with rewrites.
// The embeddings are the local test server's (test/support/openai-compatible-server.ts: character trigrams hashed
// into 256 dimensions, served over HTTP as POST /v1/embeddings to LangChain's OpenAIEmbeddings): deterministic and
// NOT semantic, so this measures the plumbing of the fusion, not what a real embedding model would add.
// `node --conditions=@skillgraph/source --import tsx bench/search-paraphrase-embeddings.ts [--held-out]`
import { join, relative } from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { createSkillRegistry, skillsFromDirectory, type SearchResult } from "@skillgraph/core";
import { startOpenAICompatibleServer } from "../test/support/openai-compatible-server.js";
import { CORPUS_DIR } from "../test/support/shared-paths.js";
import { loadQuerySets, rewritesOf, type StyledQuery } from "./support/query-sets.js";

const server = await startOpenAICompatibleServer({ script: ["unused"] });
try {
  const skillsDir = join(CORPUS_DIR, "skills");
  const sources = [skillsFromDirectory(skillsDir)];
  const embeddings = new OpenAIEmbeddings({
    model: "test-embeddings",
    apiKey: "test",
    configuration: { baseURL: server.url },
  });
  const lexical = await createSkillRegistry({ sources, snapshot: false });
  const fused = await createSkillRegistry({ sources, snapshot: false, embeddings });
  const dirOf = (path: string) => relative(skillsDir, path).replace(/\/SKILL\.md$/, "");
  const rankOf = (item: StyledQuery, results: SearchResult[]) =>
    results.findIndex((result) => item.folders.includes(dirOf(result.path)) || item.names.includes(result.name));
  console.log("paraphrase requests (test-server trigram embeddings, not a real model): top-1 / top-5");
  for (const set of loadQuerySets(process.argv.includes("--held-out"))) {
    const items = set.queries.filter((item) => item.kind === "paraphrase");
    if (items.length === 0) continue;
    const rewrites = rewritesOf(set.label);
    const withRewrites = items.filter((item) => rewrites[item.id]);
    const ways: Array<[string, (item: StyledQuery) => Promise<SearchResult[]>, StyledQuery[]]> = [
      ["lexical", async (item) => lexical.search(item.query, { limit: 5 }), items],
      ["fused", (item) => fused.searchAsync(item.query, { limit: 5 }), items],
      [
        "lexical+rewrites",
        async (item) => lexical.search([item.query, ...rewrites[item.id]!], { limit: 5 }),
        withRewrites,
      ],
      ["fused+rewrites", (item) => fused.searchAsync([item.query, ...rewrites[item.id]!], { limit: 5 }), withRewrites],
    ];
    const cells: string[] = [];
    for (const [label, search, subset] of ways) {
      if (subset.length === 0) continue;
      const ranks = await Promise.all(subset.map(async (item) => rankOf(item, await search(item))));
      const top1 = ranks.filter((rank) => rank === 0).length / subset.length;
      const top5 = ranks.filter((rank) => rank >= 0).length / subset.length;
      cells.push(`${label} ${top1.toFixed(3)}/${top5.toFixed(3)}`);
    }
    console.log(`  set ${set.label}${set.heldOut ? " (held out)" : ""} n=${items.length}: ${cells.join("  ")}`);
  }
  if (server.errors.length > 0) throw new Error(`embeddings server errors: ${server.errors.join("; ")}`);
} finally {
  await server.close();
}
