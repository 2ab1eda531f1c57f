// `skillgraph chat --shell` (or an agent file's shell.alwaysOn): the shell tool on every turn, as tama's `bash`, for
// instruction skills that name no scripts. Runs a real command in the real sandbox (or locally when bubblewrap is
// missing, with --unsafe-local) against the local OpenAI-compatible server.
import { join } from "node:path";
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

describe("skillgraph chat --shell", () => {
  it("offers the shell tool before any skill is loaded and runs an approved command", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ name: "shell", arguments: { command: "echo from-the-shell" } }] }, "Done."],
    });
    const dir = writeTree({});
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    const args = ["chat", "--skills", examples, "--shell", "--approve-all", "--unsafe-local", "--ephemeral"];
    expect(await runCli([...args, "-p", "run it"], io)).toBe(0);
    expect(server.requests[0]!.toolNames).toContain("shell");
    const toolReply = server.requests[1]!.messages.filter((message) => message.role === "tool").map((message) =>
      textOf(message.content),
    );
    expect(toolReply.join("\n")).toContain("from-the-shell");
  });

  it("does not offer it without --shell, and takes shell.alwaysOn from an agent file", async () => {
    server = await startOpenAICompatibleServer({ script: ["a", "b"] });
    const dir = writeTree({ "agent.yaml": `skills: [${examples}]\nshell:\n  alwaysOn: true\n` });
    const plain = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--skills", examples, "--unsafe-local", "--ephemeral", "-p", "hi"], plain)).toBe(0);
    expect(server.requests[0]!.toolNames).not.toContain("shell");
    const fromFile = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(
      await runCli(["chat", "--agent", join(dir, "agent.yaml"), "--unsafe-local", "--ephemeral", "-p", "hi"], fromFile),
    ).toBe(0);
    expect(server.requests[1]!.toolNames).toContain("shell");
  });
});
