// `skillgraph chat --agent FILE` against the local OpenAI-compatible server: model, base URL, system prompt, skill
// folders and only/exclude come from the agent file; flags win over it.
import { writeFileSync } from "node:fs";
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

describe("skillgraph chat --agent FILE", () => {
  it("takes model, base URL, system prompt, skills and only from the file", async () => {
    server = await startOpenAICompatibleServer({ script: ["From the agent file."] });
    const dir = writeTree({});
    writeFileSync(
      join(dir, "skillgraph.agent.yaml"),
      `model:\n  name: file-model\n  baseUrl: ${server.url}\nsystemPrompt: You write release notes.\nskills:\n  - ${examples}\nonly: [release-notes]\nshell:\n  executor: off\n`,
    );
    const io = captureIO(dir);
    expect(await runCli(["chat", "--agent", "skillgraph.agent.yaml", "-p", "hi", "--ephemeral"], io)).toBe(0);
    expect(io.out()).toBe("From the agent file.\n");
    expect(io.err()).toContain("skill scripts are off");
    const [request] = server.requests;
    expect(request!.model).toBe("file-model");
    expect(request!.systemPrompt!.startsWith("You write release notes.")).toBe(true);
    expect(request!.systemPrompt).toContain("release-notes");
    expect(request!.systemPrompt).not.toContain("sql-review");
  });

  it("flags win over the file, and a bad file is one error line with file and line", async () => {
    server = await startOpenAICompatibleServer({ script: ["ok"] });
    const dir = writeTree({
      "skillgraph.agent.yaml": `model: file-model\nskills: [${examples}]\n`,
      "bad.yaml": "skills: []\nloadMode: forever\n",
    });
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(
      await runCli(
        ["chat", "--agent", "skillgraph.agent.yaml", "--model", "flag-model", "-p", "hi", "--ephemeral"],
        io,
      ),
    ).toBe(0);
    expect(server.requests[0]!.model).toBe("flag-model");
    const bad = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--agent", "bad.yaml", "-p", "hi"], bad)).toBe(1);
    expect(bad.err()).toBe(`error: ${join(dir, "bad.yaml")}:2: loadMode must be one of turn, once, session\n`);
  });
});
