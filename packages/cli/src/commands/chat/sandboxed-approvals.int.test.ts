// The `sandboxed` approval policy, chat's default under bubblewrap: a loaded skill's scripts and commands that stay in
// the sandbox run in `chat -p` without a flag and without a question; a line that leaves it (an opaque piece) still
// asks; `shell.approval: ask` asks as before; under the local executor the same rule asks. Real CLI runs against the
// local OpenAI-compatible server, real commands in the real sandbox.
import { join } from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createShellHook, createBubblewrapExecutor, type ApprovalCandidate } from "@skillgraph/shell";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../../../../../test/support/openai-compatible-server.js";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { toolLoopGraph } from "../../../../shell/src/__fixtures__/tool-loop-graph.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";
import { chatApprovalRule } from "./chat-shell.js";

const bubblewrap = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

/** Ollama's example skill layout: a SKILL.md telling the model to run `scripts/…` with python3; no allowed-tools. */
const ollamaSkill = {
  "skills/calculator/SKILL.md":
    "---\nname: calculator\ndescription: Evaluates arithmetic expressions exactly.\n---\n\n# Calculator\n\n" +
    "## Instructions\nRun `python3 scripts/calculate.py '<expression>'` and answer with its output.\n",
  "skills/calculator/scripts/calculate.py":
    "import sys\nfrom fractions import Fraction\nimport ast\n" +
    "def ev(node):\n    if isinstance(node, ast.Expression): return ev(node.body)\n" +
    "    if isinstance(node, ast.Constant): return Fraction(node.value)\n" +
    "    if isinstance(node, ast.BinOp):\n        a, b = ev(node.left), ev(node.right)\n" +
    "        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.Div: a / b if b else None}[type(node.op)]\n" +
    "    raise SystemExit('unsupported')\n" +
    "print(ev(ast.parse(sys.argv[1], mode='eval')))\n",
};

const calculatorScript = (command: string) => [
  { toolCalls: [{ name: "read_skill", arguments: { name: "calculator" } }] },
  { toolCalls: [{ name: "run_skill_script", arguments: { skill: "calculator", command } }] },
  "The answer is 42.",
];

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The last tool result the model was sent in request `index`, parsed. */
const lastToolResult = (index: number) => {
  const tools = server!.requests[index]!.messages.filter((message) => message.role === "tool");
  return JSON.parse(textOf(tools.at(-1)!.content)) as {
    status: string;
    stdout?: string;
    executor?: string;
    reason?: string;
  };
};

describe.skipIf(!bubblewrap)("chat -p under bubblewrap: the sandboxed approval policy", () => {
  it("runs Ollama's example skill with no flag and no question", async () => {
    server = await startOpenAICompatibleServer({ script: calculatorScript("python3 scripts/calculate.py '6 * 7'") });
    const dir = writeTree(ollamaSkill);
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--skills", join(dir, "skills"), "--ephemeral", "-p", "what is 6 * 7?"], io)).toBe(0);
    expect(server.errors).toEqual([]);
    expect(io.err()).not.toContain("denied");
    expect(io.err()).not.toContain("approv");
    expect(lastToolResult(2)).toMatchObject({ status: "ok", stdout: "42\n", executor: "bubblewrap" });
    expect(io.out()).toContain("The answer is 42.");
  });

  it("asks for the same line under `shell.approval: ask` (denied in a one-shot run)", async () => {
    server = await startOpenAICompatibleServer({ script: calculatorScript("python3 scripts/calculate.py '6 * 7'") });
    const dir = writeTree({ ...ollamaSkill, "agent.yaml": "skills: [skills]\nshell:\n  approval: ask\n" });
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--agent", join(dir, "agent.yaml"), "--ephemeral", "-p", "6 * 7?"], io)).toBe(0);
    expect(io.err()).toContain("denied (one-shot runs deny commands that need approval; pass --approve-all");
    expect(lastToolResult(2)).toMatchObject({ status: "refused", reason: "approval-denied" });
  });

  it("still asks for a line with a piece that cannot be judged before running", async () => {
    server = await startOpenAICompatibleServer({ script: calculatorScript('p=python3; "$p" scripts/calculate.py 1') });
    const dir = writeTree(ollamaSkill);
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(await runCli(["chat", "--skills", join(dir, "skills"), "--ephemeral", "-p", "1?"], io)).toBe(0);
    expect(io.err()).toContain("denied (one-shot runs deny commands that need approval");
    expect(lastToolResult(2)).toMatchObject({ status: "refused", reason: "approval-denied" });
  });

  it("runs tama's always-on bash on workspace commands unasked; the deny list still refuses", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          toolCalls: [
            { name: "shell", arguments: { command: "mkdir -p notes && echo kept > notes/a.txt && ls notes" } },
          ],
        },
        { toolCalls: [{ name: "shell", arguments: { command: "kill -0 1" } }] },
        "Done.",
      ],
    });
    const dir = writeTree(ollamaSkill);
    const io = captureIO(dir, { OPENAI_BASE_URL: server.url });
    expect(
      await runCli(["chat", "--skills", join(dir, "skills"), "--shell", "--ephemeral", "-p", "keep a note"], io),
    ).toBe(0);
    expect(io.err()).not.toContain("approval");
    expect(lastToolResult(1)).toMatchObject({ status: "ok", stdout: "a.txt\n", executor: "bubblewrap" });
    expect(io.err()).toContain("'kill -0 1' is denied (deny)");
    const refused = server.requests[2]!.messages.filter((message) => message.role === "tool").at(-1)!;
    expect(textOf(refused.content)).toContain("'kill -0 1' is denied (deny)");
  });
});

describe("the sandboxed policy under the local executor", () => {
  it("asks for the line that runs unasked in the sandbox", async () => {
    const dir = writeTree(ollamaSkill);
    const catalog = await createSkillRegistry({ sources: [skillsFromDirectory(join(dir, "skills"))] });
    const seen: ApprovalCandidate[] = [];
    const rule = chatApprovalRule(catalog, new Set(), "sandboxed");
    const hook = createShellHook({
      skills: catalog,
      executor: "local",
      loadedSkills: () => ["calculator"],
      requireApproval: [(candidate) => (seen.push(candidate), rule(candidate))],
    });
    const model = fakeModel()
      .respondWithTools([
        {
          name: "run_skill_script",
          args: { skill: "calculator", command: "python3 scripts/calculate.py '6 * 7'" },
          id: "c1",
        },
      ])
      .respond(new AIMessage("done"));
    const graph = toolLoopGraph(hook.tools, model);
    const config = { configurable: { thread_id: "local" } };
    await graph.invoke({ messages: [new HumanMessage("6 * 7?")] }, config);
    const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.value).toMatchObject({ executor: "local", command: "python3 scripts/calculate.py '6 * 7'" });
    expect(seen.map((candidate) => candidate.sandboxed)).toEqual([false]);
    const state = await graph.getState(config);
    expect(state.values.messages.some((message: unknown) => ToolMessage.isInstance(message))).toBe(false);
    await hook.dispose();
  });
});
