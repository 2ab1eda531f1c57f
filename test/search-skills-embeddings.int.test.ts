// The model-facing `search_skills` tool through a real agent graph (createAgent + the skills middleware, ChatOpenAI over
// HTTP) uses the registry's async search, so a registry configured with `embeddings` (OpenAIEmbeddings against the
// local test server's /v1/embeddings) answers with skills only the embedding ranking finds.
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { createAgent, HumanMessage, type BaseMessage } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { createSkillsMiddleware } from "../packages/langgraph/src/index.js";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "./support/openai-compatible-server.js";
import { skillMd, writeTree } from "./support/skill-tree.js";

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const toolText = (messages: BaseMessage[]) =>
  messages
    .filter((message) => message.getType() === "tool")
    .map((message) => message.text)
    .join("\n");

async function runSearch(
  withEmbeddings: boolean,
  args: Record<string, unknown> = { query: "zyxwvut" },
): Promise<{ text: string; embedded: string[][]; toolSchema: unknown }> {
  const local = await startOpenAICompatibleServer({
    script: [{ toolCalls: [{ id: "call_search", name: "search_skills", arguments: args }] }, "Done."],
  });
  server = local;
  const root = writeTree({
    "quarterly/SKILL.md": skillMd("quarterly", "Compile the zyxwvutsr ledger into a summary."),
    "weather/SKILL.md": skillMd("weather", "Report the weather for a city."),
  });
  const embeddings = new OpenAIEmbeddings({
    model: "test-embeddings",
    apiKey: "test",
    configuration: { baseURL: local.url },
  });
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(root)],
    snapshot: false,
    ...(withEmbeddings ? { embeddings } : {}),
  });
  const model = new ChatOpenAI({ model: "test-model", apiKey: "test", configuration: { baseURL: local.url } });
  const agent = createAgent({ model, tools: [], middleware: [createSkillsMiddleware({ skills: registry })] });
  const result = await agent.invoke({ messages: [new HumanMessage("find the skill for the zyxwvut thing")] });
  expect(local.errors).toEqual([]);
  const toolSchema = local.requests[0]?.tools.find((tool) => tool.function.name === "search_skills")?.function
    .parameters;
  return { text: toolText(result.messages), embedded: local.embeddingRequests, toolSchema };
}

describe("search_skills through createAgent uses the registry's async (embedding-fused) search", () => {
  it("returns a skill only the embeddings find, after embedding the query over HTTP", async () => {
    // "zyxwvut" is two edits from "zyxwvutsr": too far for typo matching, close in character trigrams.
    const { text, embedded } = await runSearch(true);
    expect(text).toContain("- quarterly (score 0.00)");
    expect(text).toMatch(/^No skill is a confident fit for 'zyxwvut'\. Closest matches, which may not fit/);
    expect(embedded.flat()).toContain("zyxwvut");
  });

  it("without embeddings the same call finds nothing (the lexical ranking alone)", async () => {
    const { text, embedded } = await runSearch(false);
    expect(text).toMatch(/^No skill matches 'zyxwvut'\. Try again with \{"queries": /);
    expect(embedded).toEqual([]);
  });

  it("takes several phrasings in one call (the request as written plus rewrites) and offers `queries` to the model", async () => {
    const { text, toolSchema } = await runSearch(false, {
      queries: ["find the skill for the zyxwvut thing", "compile ledger summary", "compile the ledger into a summary"],
    });
    expect(text).toMatch(/^Skills matching 'find the skill for the zyxwvut thing' \(and 2 rewrites\)/);
    expect(text).toContain("- quarterly (score");
    expect(JSON.stringify(toolSchema)).toContain('"queries"');
  });
});
