// Rows of the peers guide a user moving over hits in `skillgraph chat` and `skillgraph agents`: --unsafe-local chooses
// the local executor even where bubblewrap works, a one-shot run names its skills, a resumed session keeps the skills
// it was started with, and an Ollama Agentfile with server-side commands loads (each ignored line noted). Real CLI
// runs against the local OpenAI-compatible server; what the model receives is read off the wire.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
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

describe("skillgraph chat for people moving over", () => {
  it("runs commands with the local executor under --unsafe-local, whether or not bubblewrap works here", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ name: "shell", arguments: { command: "echo on-the-host" } }] }, "Done."],
    });
    const io = captureIO(writeTree({}), { OPENAI_BASE_URL: server.url });
    const args = ["chat", "--skills", examples, "--shell", "--approve-all", "--unsafe-local", "--ephemeral"];
    expect(await runCli([...args, "-p", "run it"], io)).toBe(0);
    const reply = server.requests[1]!.messages.find((message) => message.role === "tool");
    const result = JSON.parse(textOf(reply!.content)) as { executor: string; stdout: string };
    expect(result).toMatchObject({ executor: "local", stdout: "on-the-host\n" });
    expect(io.err()).toContain("WITHOUT a sandbox (--unsafe-local)");
  });

  it("names the skills in a one-shot run on a terminal (or with --verbose), as the interactive greeting does", async () => {
    server = await startOpenAICompatibleServer({ script: ["ok", "ok", "ok", "ok"] });
    const run = async (flags: string[], terminal: boolean) => {
      const io = captureIO(writeTree({}), { OPENAI_BASE_URL: server!.url });
      io.stderr.isTTY = terminal;
      expect(await runCli(["chat", "--skills", examples, "--ephemeral", ...flags, "-p", "hi"], io)).toBe(0);
      return io.err();
    };
    expect(await run([], true)).toMatch(/skills: \d+ \(.*report-builder.*\)/);
    expect(await run(["--verbose"], false)).toMatch(/skills: \d+ \(.*report-builder.*\)/);
    expect(await run([], false)).not.toContain("skills:");
    expect(await run(["--quiet"], true)).not.toContain("skills:");
  });

  it("resumes a session with the skills it was started with, without repeating --skills", async () => {
    server = await startOpenAICompatibleServer({ script: ["first", "second", "third"] });
    const dir = writeTree({ "elsewhere/only-here/SKILL.md": "---\nname: only-here\ndescription: Other.\n---\nBody\n" });
    const env = { OPENAI_BASE_URL: server.url };
    const start = captureIO(dir, env);
    expect(await runCli(["chat", "--session", "s1", "--skills", examples, "-p", "one"], start)).toBe(0);
    const resume = captureIO(dir, env);
    expect(await runCli(["chat", "--session", "s1", "-p", "two"], resume)).toBe(0);
    expect(server.requests[1]!.systemPrompt).toContain("report-builder");
    expect(resume.err()).toContain(`the session's setup: --skills ${examples}`);
    // flags given on a resume win, and are what the session keeps from then on
    const other = captureIO(dir, env);
    expect(await runCli(["chat", "--session", "s1", "--skills", "elsewhere", "-p", "three"], other)).toBe(0);
    expect(server.requests[2]!.systemPrompt).toContain("only-here");
    expect(server.requests[2]!.systemPrompt).not.toContain("report-builder");
  });
});

describe("tama skills in chat", () => {
  it("offers tama_mem_* once a tama skill naming them is loaded, and they keep what was stored", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ name: "read_skill", arguments: { name: "mem-set" } }] },
        { toolCalls: [{ name: "tama_mem_set", arguments: { key: "topic", value: "tides" } }] },
        "Stored.",
      ],
    });
    const dir = writeTree({
      "skills/mem-set/SKILL.md":
        "---\nname: mem-set\ndescription: Store a value.\ntools:\n  - tama_mem_set\n---\nCall tama_mem_set.\n",
    });
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--skills", "skills", "--ephemeral", "-p", "remember tides"], io)).toBe(0);
    expect(server.requests[0]!.toolNames).not.toContain("tama_mem_set");
    expect(server.requests[1]!.toolNames).toContain("tama_mem_set");
    const reply = server.requests[2]!.messages.filter((message) => message.role === "tool").map((m) =>
      textOf(m.content),
    );
    expect(reply.at(-1)).toBe("stored 'topic' (5 characters)");
  });
});

describe("an Ollama Agentfile as written for Ollama", () => {
  const agentfile = (skill: string) =>
    [
      "FROM agent-model",
      "AGENT_TYPE task-based",
      `SKILL ${skill}`,
      "LICENSE MIT",
      'TEMPLATE """{{ .System }} {{ .Prompt }}"""',
      "ADAPTER ./lora.gguf",
      "MESSAGE user hello",
      "REQUIRES 0.9.0",
      "PARAMETER num_ctx 8192",
      'PARAMETER stop "<|im_end|>"',
      "PARAMETER stop END",
      "PARAMETER temperature 0.2",
    ].join("\n");

  it("loads, notes each ignored line, and sends the stop sequences and parameters that map", async () => {
    server = await startOpenAICompatibleServer({ script: ["Done."] });
    const dir = writeTree({ Agentfile: agentfile(examples) });
    const env = { OPENAI_BASE_URL: server.url };
    const chat = captureIO(dir, env);
    expect(await runCli(["chat", "--agent", "Agentfile", "--ephemeral", "-p", "go"], chat)).toBe(0);
    for (const ignored of ["LICENSE", "TEMPLATE", "ADAPTER", "MESSAGE", "REQUIRES", "PARAMETER num_ctx"])
      expect(chat.err()).toMatch(new RegExp(`note: Agentfile:\\d+: ${ignored} ignored`));
    const [request] = server.requests;
    expect(request!.model).toBe("agent-model");
    expect(request!.body.stop).toEqual(["<|im_end|>", "END"]);
    expect(request!.body.temperature).toBe(0.2);
    const create = captureIO(dir, env);
    expect(await runCli(["agents", "create", "tasks", "-f", "Agentfile"], create)).toBe(0);
    expect(create.err()).toContain("LICENSE ignored");
    const show = captureIO(dir, env);
    expect(await runCli(["agents", "show", "tasks"], show)).toBe(0);
    expect(show.out()).toContain("type: task-based");
    expect(show.out()).toContain('stop "<|im_end|>" "END"');
  });

  it("refuses at create time a SKILL folder that does not exist", async () => {
    const dir = writeTree({ Agentfile: agentfile("./no-such-skills") });
    const create = captureIO(dir, {});
    expect(await runCli(["agents", "create", "broken", "-f", "Agentfile"], create)).toBe(1);
    expect(create.err()).toContain("skill folder not found");
    expect(create.err()).toContain("no-such-skills");
  });
});
