// Named agents and model parameters: `skillgraph agents create NAME -f FILE`, `chat --agent NAME`, `agents show NAME`,
// against the local OpenAI-compatible server (what the model receives is read off the wire).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from "../../../../../test/support/openai-compatible-server.js";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

const examples = fileURLToPath(new URL("../../../../../examples/skills", import.meta.url));
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("skillgraph agents and model parameters", () => {
  it("runs an Ollama-style Agentfile saved under a name; its PARAMETERs reach the model", async () => {
    server = await startOpenAICompatibleServer({ script: ["Release notes drafted."] });
    const dir = writeTree({
      Agentfile: [
        "FROM agent-model",
        "AGENT_TYPE conversational",
        `SKILL ${examples}`,
        "SYSTEM You write release notes.",
        "PARAMETER temperature 0.3",
        "PARAMETER top_p 0.9",
        "PARAMETER num_predict 200",
      ].join("\n"),
    });
    const env = { OPENAI_BASE_URL: server.url };
    const create = captureIO(dir, env);
    expect(await runCli(["agents", "create", "release", "-f", "Agentfile"], create)).toBe(0);
    expect(create.out()).toContain("Created agent release");
    expect(existsSync(join(dir, ".skillgraph", "agents", "release.agent.json"))).toBe(true);
    const again = captureIO(dir, env);
    expect(await runCli(["agents", "create", "release", "-f", "Agentfile"], again)).toBe(1);
    expect(again.err()).toContain("agent 'release' already exists");

    const chat = captureIO(dir, env);
    expect(await runCli(["chat", "--agent", "release", "-p", "notes please", "--ephemeral"], chat)).toBe(0);
    expect(chat.out()).toBe("Release notes drafted.\n");
    const [request] = server.requests;
    expect(request!.model).toBe("agent-model");
    expect(request!.body.temperature).toBe(0.3);
    expect(request!.body.top_p).toBe(0.9);
    expect(request!.body.max_tokens ?? request!.body.max_completion_tokens).toBe(200);
    expect(request!.systemPrompt!.startsWith("You write release notes.")).toBe(true);

    const show = captureIO(dir, env);
    expect(await runCli(["agents", "show", "release"], show)).toBe(0);
    expect(show.out()).toContain("model: agent-model");
    expect(show.out()).toContain("parameters: temperature 0.3, topP 0.9, maxTokens 200");
    expect(show.out()).toContain(`skills: ${examples}`);
    const list = captureIO(dir, env);
    expect(await runCli(["agents", "list", "--json"], list)).toBe(0);
    expect(JSON.parse(list.out()).agents).toEqual(["release"]);
  });

  it("passes a YAML agent file's model parameters to the model", async () => {
    server = await startOpenAICompatibleServer({ script: ["ok"] });
    const dir = writeTree({
      "skillgraph.agent.yaml": `model:\n  name: yaml-model\n  baseUrl: ${server.url}\n  temperature: 0\n  maxTokens: 50\nskills: [${examples}]\nshell:\n  executor: off\n`,
    });
    const io = captureIO(dir);
    expect(await runCli(["chat", "--agent", "skillgraph.agent.yaml", "-p", "hi", "--ephemeral"], io)).toBe(0);
    expect(server.requests[0]!.body.temperature).toBe(0);
    expect(server.requests[0]!.body.max_tokens ?? server.requests[0]!.body.max_completion_tokens).toBe(50);
    expect(server.requests[0]!.body.top_p).toBeUndefined();
  });

  it("refuses an unknown agent name and a name that is a path trick", async () => {
    const dir = writeTree({});
    const missing = captureIO(dir, { OPENAI_BASE_URL: "http://127.0.0.1:9" });
    expect(await runCli(["chat", "--agent", "nobody", "-p", "hi", "--ephemeral"], missing)).toBe(1);
    expect(missing.err()).toContain("no agent named 'nobody'");
    const trick = captureIO(dir);
    expect(await runCli(["agents", "show", "..evil"], trick)).toBe(2);
    expect(trick.err()).toContain("is not an agent name");
  });
});
