// The `embeddings` option end to end: LangChain's OpenAIEmbeddings over HTTP against the local OpenAI-compatible test
// server (POST /v1/embeddings, deterministic character-trigram vectors), fused with the lexical ranking.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "./support/openai-compatible-server.js";
import { skillMd, writeTree } from "./support/skill-tree.js";

let server: OpenAICompatibleServer;
beforeAll(async () => {
  server = await startOpenAICompatibleServer({ script: ["unused"] });
});
afterAll(async () => {
  await server.close();
});

describe("search with an embeddings model (OpenAIEmbeddings → local /v1/embeddings)", () => {
  it("finds by embedding what the lexical ranking misses, caches vectors by content hash, re-embeds only changes", async () => {
    const root = writeTree({
      "quarterly/SKILL.md": skillMd("quarterly", "Compile the zyxwvutsr ledger into a summary."),
      "weather/SKILL.md": skillMd("weather", "Report the weather for a city."),
      "poetry/SKILL.md": skillMd("poetry", "Write short poems about animals."),
    });
    const embeddings = new OpenAIEmbeddings({
      model: "test-embeddings",
      apiKey: "test",
      configuration: { baseURL: server.url },
    });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false, embeddings });

    // "zyxwvut" is two edits from "zyxwvutsr": too far for typo matching, close in character trigrams.
    expect(registry.search("zyxwvut")).toEqual([]);
    const fused = await registry.searchAsync("zyxwvut", { limit: 3 });
    expect(fused[0]).toMatchObject({ name: "quarterly", score: 0, confident: false });
    // Lexical hits stay first when both agree, with their calibrated score.
    const both = await registry.searchAsync("weather report for a city", { limit: 3 });
    expect(both[0]).toMatchObject({ name: "weather", confident: true });
    expect(server.errors).toEqual([]);

    const documentTexts = () => server.embeddingRequests.flat().filter((text) => text.includes(": "));
    expect(documentTexts()).toHaveLength(3);
    writeFileSync(join(root, "poetry/SKILL.md"), skillMd("poetry", "Write short poems about cats."));
    await registry.reload();
    await registry.searchAsync("cats", { limit: 1 });
    // Only the edited skill was embedded again.
    expect(documentTexts()).toHaveLength(4);
    expect(documentTexts().at(-1)).toBe("poetry: Write short poems about cats.");

    // A view filters the fused results too.
    const view = registry.view({ exclude: ["quarterly"] });
    expect((await view.searchAsync("zyxwvut", { limit: 3 })).map((hit) => hit.name)).not.toContain("quarterly");
  });

  it("falls back to the lexical ranking when the embeddings service fails", async () => {
    const root = writeTree({ "weather/SKILL.md": skillMd("weather", "Report the weather for a city.") });
    const broken = new OpenAIEmbeddings({
      model: "x",
      apiKey: "test",
      maxRetries: 0,
      configuration: { baseURL: "http://127.0.0.1:9/v1" },
    });
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(root)],
      snapshot: false,
      embeddings: broken,
    });
    expect((await registry.searchAsync("weather in a city")).map((hit) => hit.name)).toEqual(["weather"]);
  });
});
