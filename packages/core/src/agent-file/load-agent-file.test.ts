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
