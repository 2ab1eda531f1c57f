import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  scriptFromFile,
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
  type RecordedChatRequest,
} from "../../test/support/openai-compatible-server.js";
import { main } from "./index.js";

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const agentOf = (request: RecordedChatRequest) =>
  /^You are the (writer|reviewer)\./.exec(request.systemPrompt ?? "")?.[1] ??
  (request.systemPrompt?.startsWith("You coordinate") ? "supervisor" : "unknown");

describe("examples/multi-agent", () => {
  it("routes to both sub-agents, each of which sees and loads only its own skills", async () => {
    const review = "1. `DELETE FROM orders` has no WHERE: it deletes every row.";
    const commit = "fix(db): scope the orders cleanup to expired rows";
    // The replies the README's demo run plays (demo-replies.json), so the test runs exactly that script.
    const { script } = await scriptFromFile(fileURLToPath(new URL("./demo-replies.json", import.meta.url)));
    expect(script).toContain(review);
    expect(script).toContain(commit);
    server = await startOpenAICompatibleServer({ script });
    const result = await main({ baseURL: server.url, apiKey: "k", model: "team-model" });

    expect(server.errors).toEqual([]);
    expect(server.requests.map(agentOf)).toEqual([
      "supervisor",
      "reviewer",
      "reviewer",
      "supervisor",
      "writer",
      "writer",
      "supervisor",
    ]);
    expect(result.skillsLoaded).toEqual([
      { agent: "reviewer", skill: "sql-review" },
      { agent: "writer", skill: "commit-message" },
    ]);
    expect(result.answer).toBe(
      "The reviewer found an unscoped DELETE; the writer proposes: fix(db): scope the orders cleanup to expired rows",
    );

    for (const request of server.requests) {
      const prompt = request.systemPrompt ?? "";
      const agent = agentOf(request);
      if (agent === "supervisor") {
        expect(request.toolNames.sort()).toEqual(["ask_reviewer", "ask_writer"]);
        expect(prompt).not.toContain("sql-review");
      } else if (agent === "reviewer") {
        expect(prompt).toContain("sql-review");
        expect(prompt).not.toContain("release-notes");
        expect(prompt).not.toContain("commit-message");
        expect(request.toolNames).toContain("read_skill");
      } else {
        expect(prompt).toContain("release-notes");
        expect(prompt).toContain("commit-message");
        expect(prompt).not.toContain("sql-review");
      }
    }
    // Each sub-agent starts from the supervisor's task alone, not the supervisor's conversation.
    expect(server.requests[1]!.messages.slice(1)).toEqual([{ role: "user", content: "Review: DELETE FROM orders" }]);
    // The writer gets the commit-message body after read_skill; the supervisor finally sees both sub-agent answers as tool results.
    expect(textOf(server.requests[5]!.messages.at(-1)!.content)).toContain("`<type>(<scope>): <summary>`");
    const toolResults = server.requests[6]!.messages.filter((message) => message.role === "tool").map((message) => [
      message.tool_call_id,
      textOf(message.content),
    ]);
    expect(toolResults).toEqual([
      ["call_review", review],
      ["call_commit", commit],
    ]);
  });
});
