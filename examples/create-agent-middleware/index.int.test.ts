import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  scriptFromFile,
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../../test/support/openai-compatible-server.js";
import { main } from "./index.js";

const skillsDir = new URL("../skills/", import.meta.url);
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("examples/create-agent-middleware", () => {
  it("loads sql-review, reads its index checklist and streams the answer, with each request carrying what the skills runtime promised", async () => {
    // The replies the README's demo run plays (demo-replies.json), so the test runs exactly that script.
    const { script } = await scriptFromFile(fileURLToPath(new URL("./demo-replies.json", import.meta.url)));
    server = await startOpenAICompatibleServer({ script });
    const tokens: string[] = [];
    const result = await main({
      baseURL: server.url,
      apiKey: "test-key",
      model: "example-model",
      onToken: (text) => tokens.push(text),
    });

    expect(server.errors).toEqual([]);
    expect(result.skillsLoaded).toEqual(["sql-review"]);
    expect(result.answer).toBe(
      "1. Line 1: lower(email) defeats the index; add an expression index ON users (lower(email)).",
    );
    expect(tokens.length).toBeGreaterThan(1);

    const [first, second, third] = server.requests;
    expect(server.requests).toHaveLength(3);
    // Every request streams and names the model; the first lists the skills (names and descriptions, no bodies) after our own prompt.
    expect(server.requests.map((request) => [request.model, request.stream])).toEqual([
      ["example-model", true],
      ["example-model", true],
      ["example-model", true],
    ]);
    expect(first!.systemPrompt).toMatch(/^You are a senior engineer\. Use the matching skill for every task\.\n\n/);
    for (const name of ["release-notes", "sql-review", "commit-message"]) expect(first!.systemPrompt).toContain(name);
    expect(first!.systemPrompt).toContain(
      "Review SQL queries and schema migrations for correctness, performance and safety.",
    );
    expect(first!.systemPrompt).not.toContain("Check, in this order");
    expect(first!.toolNames).toEqual(expect.arrayContaining(["read_skill", "read_skill_file", "search_skills"]));
    expect(first!.messages.map((message) => message.role)).toEqual(["system", "user"]);

    // After read_skill the model receives the SKILL.md body in the tool result.
    const body = (await readFile(new URL("sql-review/SKILL.md", skillsDir), "utf8"))
      .split("---")
      .slice(2)
      .join("---")
      .trim();
    const loadResult = second!.messages.at(-1)!;
    expect(loadResult.role).toBe("tool");
    expect(loadResult.tool_call_id).toBe("call_1_1");
    expect(textOf(loadResult.content)).toContain(body);
    expect(second!.messages.at(-2)!.tool_calls?.[0]?.function).toEqual({
      name: "read_skill",
      arguments: '{"name":"sql-review"}',
    });

    // After read_skill_file it receives the reference file verbatim.
    const indexes = await readFile(new URL("sql-review/references/indexes.md", skillsDir), "utf8");
    expect(textOf(third!.messages.at(-1)!.content)).toBe(indexes);
    expect(third!.systemPrompt).toBe(second!.systemPrompt);
  });
});
