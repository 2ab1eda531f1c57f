// The local embeddings recipe of docs/search.md, run as written against the local OpenAI-compatible test server
// (POST /v1/embeddings; deterministic character-trigram vectors, NOT a semantic model): several phrasings are each
// embedded once and fused, and on the development sets' paraphrase requests the fused ranking with rewrites keeps
// what the rewrites found. No real embedding model is measured here.
import { join, relative } from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory, type SearchResult } from "@skillgraph/core";
import { readQuerySet, rewritesOf } from "../bench/support/query-sets.js";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "./support/openai-compatible-server.js";
import { CORPUS_AVAILABLE, CORPUS_DIR, REPO_ROOT } from "./support/shared-paths.js";
import { skillMd, writeTree } from "./support/skill-tree.js";

let server: OpenAICompatibleServer;
beforeAll(async () => {
  server = await startOpenAICompatibleServer({ script: ["unused"] });
});
afterAll(async () => {
  await server.close();
});

/** The recipe from docs/search.md, with the base URL of the local server in place of Ollama's. */
function localEmbeddings(baseURL: string): OpenAIEmbeddings {
  return new OpenAIEmbeddings({
    model: "nomic-embed-text",
    apiKey: "ollama",
    encodingFormat: "float",
    configuration: { baseURL },
  });
}

describe("local embeddings recipe (OpenAIEmbeddings → an OpenAI-compatible /v1/embeddings)", () => {
  it("embeds each phrasing once and fuses them with the lexical ranking", async () => {
    const root = writeTree({
      "quarterly/SKILL.md": skillMd("quarterly", "Compile the zyxwvutsr ledger into a summary."),
      "weather/SKILL.md": skillMd("weather", "Report the weather forecast for a city."),
      "poetry/SKILL.md": skillMd("poetry", "Write short poems about animals."),
    });
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(root)],
      snapshot: false,
      embeddings: localEmbeddings(server.url),
    });
    const before = server.embeddingRequests.length;
    // The second phrasing is two edits from "zyxwvutsr": no lexical match, close in character trigrams.
    const fused = await registry.searchAsync(["tomorrow's sky outlook", "zyxwvut"], { limit: 3 });
    expect(fused.map((hit) => hit.name)).toContain("quarterly");
    const queried = server.embeddingRequests
      .slice(before)
      .flat()
      .filter((text) => !text.includes(": "));
    expect(queried.sort()).toEqual(["tomorrow's sky outlook", "zyxwvut"]);
    // A confident lexical first result stays first whatever the embeddings say ("zyxwvutsq" is one edit from the
    // quarterly skill's word and close to it in trigrams).
    const phrasings = ["weather forecast for a city", "report the weather for a city", "zyxwvutsq"];
    const clear = await registry.searchAsync(phrasings, { limit: 3 });
    expect(clear[0]).toMatchObject({ name: "weather", confident: true });
    expect(server.errors).toEqual([]);
  });

  it.skipIf(!CORPUS_AVAILABLE)(
    "on the development sets' paraphrase requests with rewrites, the fused ranking keeps the rewrites' top-5",
    async () => {
      const skillsDir = join(CORPUS_DIR, "skills");
      const sources = [skillsFromDirectory(skillsDir)];
      const lexical = await createSkillRegistry({ sources, snapshot: false });
      const fused = await createSkillRegistry({ sources, snapshot: false, embeddings: localEmbeddings(server.url) });
      const dirOf = (path: string) => relative(skillsDir, path).replace(/\/SKILL\.md$/, "");
      for (const label of ["E1", "E2"]) {
        const set = readQuerySet(
          label,
          join(REPO_ROOT, `test/fixtures/search-development-queries-${label.toLowerCase()}.json`),
        );
        const rewrites = rewritesOf(label);
        const items = set.queries.filter((item) => item.kind === "paraphrase" && rewrites[item.id]);
        expect(items.length).toBe(25);
        const inTop5 = (item: (typeof items)[number], results: SearchResult[]) =>
          results.some((result) => item.folders.includes(dirOf(result.path)) || item.names.includes(result.name));
        let lexicalHits = 0;
        let fusedHits = 0;
        for (const item of items) {
          const phrasings = [item.query, ...rewrites[item.id]!];
          if (inTop5(item, lexical.search(phrasings, { limit: 5 }))) lexicalHits++;
          if (inTop5(item, await fused.searchAsync(phrasings, { limit: 5 }))) fusedHits++;
        }
        console.log(
          `set ${label} paraphrase with rewrites, top-5: lexical ${(lexicalHits / items.length).toFixed(2)}, ` +
            `fused with the test server's trigram embeddings ${(fusedHits / items.length).toFixed(2)}`,
        );
        expect(fusedHits).toBeGreaterThanOrEqual(lexicalHits - 1);
      }
      expect(server.errors).toEqual([]);
    },
  );
});
