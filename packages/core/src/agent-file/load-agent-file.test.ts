import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/support/skill-tree.js";
import { AgentFileError } from "./agent-file-error.js";
import { loadAgentFile } from "./load-agent-file.js";

const YAML = `# a declarative agent
model:
  name: qwen3
  baseUrl: http://localhost:11434/v1
systemPrompt: You are a release manager.
skills:
  - ./skills
  - /opt/shared-skills
only: [release-notes, commit-message]
loadMode: session
loadModes:
  commit-message: once
shell:
  executor: sandbox
  approval: deny-all
checkpointer: sqlite:.skillgraph/agent.db
`;

describe("loadAgentFile", () => {
  it("reads a skillgraph.agent.yaml, resolving paths against its folder", async () => {
    const dir = writeTree({ "skillgraph.agent.yaml": YAML });
    const agent = await loadAgentFile(join(dir, "skillgraph.agent.yaml"));
    expect(agent).toEqual({
      file: join(dir, "skillgraph.agent.yaml"),
      model: { name: "qwen3", baseUrl: "http://localhost:11434/v1" },
      systemPrompt: "You are a release manager.",
      skills: [join(dir, "skills"), "/opt/shared-skills"],
      only: ["release-notes", "commit-message"],
      loadMode: "session",
      loadModes: { "commit-message": "once" },
      shell: { executor: "sandbox", approval: "deny-all" },
      checkpointer: `sqlite:${join(dir, ".skillgraph/agent.db")}`,
    });
  });

  it("reads the skillgraph key of a package.json", async () => {
    const dir = writeTree({
      "package.json": JSON.stringify(
        { name: "app", skillgraph: { model: "llama3.1", skills: ["agent-skills"] } },
        null,
        2,
      ),
    });
    const agent = await loadAgentFile(join(dir, "package.json"));
    expect(agent).toEqual({
      file: join(dir, "package.json"),
      model: { name: "llama3.1" },
      skills: [join(dir, "agent-skills")],
    });
  });

  it.each([
    ["loadMode: forever\n", 1, "loadMode must be one of turn, once, session"],
    ["skills:\n  - ok\n  - 3\n", 3, "skills.1 must be a non-empty string"],
    ["model:\n  name: x\n  temprature: 2\n", 3, "unknown model setting 'temprature'"],
    ["sytemPrompt: hi\n", 1, "unknown setting 'sytemPrompt'"],
    ["shell:\n  executor: docker\n", 2, "shell.executor must be sandbox, unsafe-local or off"],
    ["loadModes:\n  a: turn\n  b: sometimes\n", 3, "loadModes.b must be one of"],
    ["skills: [unclosed\n", 2, "invalid YAML"],
    ["- just\n- a list\n", 1, "must be a mapping of settings"],
    ["shell:\n  alwaysOn: yes\n  sandbox: true\n", 2, "shell.alwaysOn must be true or false"],
    ["shell:\n  sandbox: true\n", 2, "unknown shell setting 'sandbox' (known: executor, approval, alwaysOn)"],
    ["model:\n  temperature: .inf\n", 2, "model.temperature must be a number from 0 to 2, not 'Infinity'"],
    ["model: [qwen3]\n", 1, "model must be a name or { name, baseUrl }"],
    ["agentType: planner\n", 1, "agentType must be conversational or react"],
    ["checkpointer: ''\n", 1, "checkpointer must be a non-empty string"],
    // Several problems: the first in the file is reported.
    ["skills: ./s\nloadMode: x\nbogus: 1\n", 1, "skills must be a list of strings"],
    ["loadMode: x\nbogus: 1\n", 1, "loadMode must be one of turn, once, session"],
  ])("%j is refused with file and line %i", async (text, line, message) => {
    const dir = writeTree({ "skillgraph.agent.yaml": text });
    const file = join(dir, "skillgraph.agent.yaml");
    const error = await loadAgentFile(file).catch((caught: unknown) => caught);
    expect(AgentFileError.isInstance(error)).toBe(true);
    expect((error as AgentFileError).message).toContain(`${file}:${line}: ${message}`);
  });

  it("a missing file, a folder, and a package.json without the key", async () => {
    const dir = writeTree({ "package.json": '{"name":"x"}' });
    await expect(loadAgentFile(join(dir, "nope.yaml"))).rejects.toThrow(`${join(dir, "nope.yaml")}: does not exist`);
    await expect(loadAgentFile(dir)).rejects.toThrow("is a folder, not an agent file");
    await expect(loadAgentFile(join(dir, "package.json"))).rejects.toThrow('has no "skillgraph" key');
  });
});

describe("loadAgentFile: model parameters and Ollama-style Agentfiles", () => {
  it("reads temperature, topP and maxTokens under model in YAML, and refuses out-of-range values with the line", async () => {
    const dir = writeTree({
      "skillgraph.agent.yaml": "model:\n  name: qwen3\n  temperature: 0.3\n  topP: 0.9\n  maxTokens: 512\n",
      "bad.yaml": "model:\n  name: qwen3\n  temperature: 7\n",
      "text.yaml": "model:\n  topP: 'high'\n",
    });
    expect((await loadAgentFile(join(dir, "skillgraph.agent.yaml"))).model).toEqual({
      name: "qwen3",
      temperature: 0.3,
      topP: 0.9,
      maxTokens: 512,
    });
    await expect(loadAgentFile(join(dir, "bad.yaml"))).rejects.toThrow(
      `${join(dir, "bad.yaml")}:3: model.temperature must be a number from 0 to 2, not '7'`,
    );
    await expect(loadAgentFile(join(dir, "text.yaml"))).rejects.toThrow("text.yaml:2: model.topP must be a number");
  });

  it("reads the same parameters from package.json's skillgraph key", async () => {
    const dir = writeTree({
      "package.json": JSON.stringify({ name: "x", skillgraph: { model: { name: "m", maxTokens: 64 } } }),
    });
    expect((await loadAgentFile(join(dir, "package.json"))).model).toEqual({ name: "m", maxTokens: 64 });
  });

  it("reads an Agentfile: FROM, SKILL folders relative to it, AGENT_TYPE, a multi-line SYSTEM, PARAMETERs", async () => {
    const dir = writeTree({
      Agentfile: [
        "# release helper",
        "FROM gpt-oss:20b",
        "AGENT_TYPE conversational",
        "SKILL ./skills",
        "SKILL /opt/shared-skills",
        'SYSTEM """You are a release manager.',
        'Be brief."""',
        "PARAMETER temperature 0.3",
        "PARAMETER top_p 0.9",
        "PARAMETER num_predict 256",
        "",
      ].join("\n"),
    });
    expect(await loadAgentFile(join(dir, "Agentfile"))).toEqual({
      file: join(dir, "Agentfile"),
      model: { name: "gpt-oss:20b", temperature: 0.3, topP: 0.9, maxTokens: 256 },
      agentType: "conversational",
      systemPrompt: "You are a release manager.\nBe brief.",
      skills: [join(dir, "skills"), "/opt/shared-skills"],
    });
  });

  it("recognises an Agentfile under another name by its first command", async () => {
    const dir = writeTree({ "release.txt": "FROM llama3.2\nSYSTEM You help.\n" });
    expect(await loadAgentFile(join(dir, "release.txt"))).toMatchObject({
      model: { name: "llama3.2" },
      systemPrompt: "You help.",
    });
  });

  it("reads Ollama's server-side lines and ignores each with a note naming its line; stop sequences are kept", async () => {
    const lines = [
      "FROM llama3.2",
      "AGENT_TYPE task-based",
      "LICENSE MIT",
      'TEMPLATE """{{ .System }}',
      '{{ .Prompt }}"""',
      "ADAPTER ./lora.gguf",
      "MESSAGE user hi",
      "REQUIRES 0.9.0",
      "PARAMETER num_ctx 8192",
      "PARAMETER top_k 40",
      'PARAMETER stop "<|eot_id|>"',
      "PARAMETER stop Human:",
    ];
    const dir = writeTree({ Agentfile: lines.join("\n") });
    const agent = await loadAgentFile(join(dir, "Agentfile"));
    expect(agent).toMatchObject({
      agentType: "task-based",
      model: { name: "llama3.2", stop: ["<|eot_id|>", "Human:"] },
    });
    expect(agent.ignored?.map((line) => line.split(" ignored")[0])).toEqual([
      "Agentfile:3: LICENSE",
      "Agentfile:4: TEMPLATE",
      "Agentfile:6: ADAPTER",
      "Agentfile:7: MESSAGE",
      "Agentfile:8: REQUIRES",
      "Agentfile:9: PARAMETER num_ctx",
      "Agentfile:10: PARAMETER top_k",
    ]);
  });

  it.each([
    ["PARAMETER temperature hot", "2: PARAMETER temperature must be a number from 0 to 2, not 'hot'"],
    [
      "PARAMETER top_q 40",
      "2: PARAMETER top_q is not supported (supported: temperature, top_p, num_predict, max_tokens, stop;",
    ],
    ["AGENT_TYPE planner", "2: AGENT_TYPE must be conversational or react or task-based, not 'planner'"],
    ["SKILL library/skill/calculator:1.0.0", "2: SKILL library/skill/calculator:1.0.0 is a registry reference"],
    ['SYSTEM """never closed', '2: SYSTEM: the """ opened here is never closed'],
    ["FROM other", "2: FROM is given twice"],
    ["BOGUS x", "2: unknown command 'BOGUS'"],
  ])("refuses '%s' with the line", async (line, message) => {
    const dir = writeTree({ Agentfile: `FROM llama3.2\n${line}\n` });
    const error = await loadAgentFile(join(dir, "Agentfile")).catch((caught: unknown) => caught);
    expect(AgentFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${join(dir, "Agentfile")}:${message}`);
  });
});
