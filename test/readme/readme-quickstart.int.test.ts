import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { REPO_ROOT } from "../support/shared-paths.js";

/** The first ```ts block of the README: the library quick start a user pastes. */
function quickStartSource(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const match = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error("README.md has no ```ts block under '## Quick start'");
  return match[1]!;
}

describe("README quick start", () => {
  let server: OpenAICompatibleServer | undefined;
  afterAll(() => server?.close());

  it.each([
    ["OPENAI_API_KEY set", { OPENAI_API_KEY: "test-key" }, "Bearer test-key"],
    // How Ollama, vLLM and llama.cpp users run it: a base URL and no key (a placeholder key is sent).
    ["only OPENAI_BASE_URL set", {}, "Bearer not-needed"],
  ])(
    "runs as pasted (%s): the agent reads a skill and streams the answer from an OpenAI-compatible endpoint",
    async (_case, keyEnv, authorization) => {
      await server?.close();
      server = await startOpenAICompatibleServer({
        script: [
          { toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "release-notes" } }] },
          "## v1.2.0\n- Added the chat command.",
        ],
      });
      // Saved inside the repository, as a user following the README would, so the workspace packages resolve.
      const dir = join(REPO_ROOT, ".test-results");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "quickstart.ts");
      writeFileSync(file, quickStartSource());
      const child = spawn(process.execPath, ["--conditions=@skillgraph/source", "--import", "tsx", file], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? "/usr/bin", HOME: dir, OPENAI_BASE_URL: server.url, ...keyEnv },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toBe("## v1.2.0\n- Added the chat command.");
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.headers.authorization).toBe(authorization);
      expect(server.requests[0]!.systemPrompt).toContain("release-notes");
      expect(
        server.requests[1]!.messages.some(
          (message) => message.role === "tool" && JSON.stringify(message.content).includes("release"),
        ),
      ).toBe(true);
    },
  );
});
