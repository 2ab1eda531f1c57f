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

describe("examples/hand-built-graph", () => {
  it("loads release-notes, calls the ordinary tool through the interceptor's tool node and streams the answer", async () => {
    const answer =
      "## v1.3.0 (2026-11-22)\n\nRename `--dir` to `--source`.\n\n### Breaking changes\n- Rename `--dir` to `--source` (#44)\n  Migration: pass `--source DIR`.";
    // The replies the README's demo run plays (demo-replies.json), so the test runs exactly that script.
    const { script } = await scriptFromFile(fileURLToPath(new URL("./demo-replies.json", import.meta.url)));
    expect((script.at(-1) as { content: string }).content).toBe(answer);
    server = await startOpenAICompatibleServer({ script });
    const tokens: string[] = [];
    const result = await main({
      baseURL: server.url,
      apiKey: "k",
      model: "graph-model",
      onToken: (text) => tokens.push(text),
    });

    expect(server.errors).toEqual([]);
    expect(result.skillsLoaded).toEqual(["release-notes"]);
    expect(result.answer).toBe(`I'll use the release-notes skill.${answer}`);
    expect(tokens.length).toBeGreaterThan(5);

    expect(server.requests).toHaveLength(3);
    const [first, second, third] = server.requests;
    // The model node sends our prompt plus the skills list, our ordinary tool plus the skills tools, on every call.
    expect(first!.systemPrompt).toMatch(/^You are a release manager\.\n\n/);
    expect(first!.systemPrompt).toContain("Write release notes for a software release from a list of merged changes.");
    expect(first!.toolNames).toEqual(
      expect.arrayContaining(["list_merged_changes", "read_skill", "read_skill_file", "search_skills"]),
    );
    expect(first!.messages).toEqual([
      { role: "system", content: first!.systemPrompt },
      { role: "user", content: "Write the release notes for v1.3.0 (changes since v1.2.0)." },
    ]);
    expect(second!.toolNames).toEqual(expect.arrayContaining(["list_merged_changes", "read_skill"]));

    // The read_skill result the model sees holds the SKILL.md body; the assistant turn before it is replayed with its text and call.
    const body = (await readFile(new URL("release-notes/SKILL.md", skillsDir), "utf8"))
      .split("---")
      .slice(2)
      .join("---")
      .trim();
    expect(second!.messages.at(-2)).toMatchObject({ role: "assistant", content: "I'll use the release-notes skill." });
    expect(textOf(second!.messages.at(-1)!.content)).toContain(body);

    // The ordinary tool ran in the interceptor's tool node; its output is the last message of the third request.
    expect(third!.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_changes" });
    expect(textOf(third!.messages.at(-1)!.content)).toContain("#44 feat!: rename --dir to --source");
    // The skill body is still there (turn-scoped skills stay loaded until the turn ends).
    expect(textOf(third!.messages.at(-3)!.content)).toContain(body);
  });
});
