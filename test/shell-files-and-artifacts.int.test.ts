// Files in and out through the SkillsInterceptor, both shapes: a CSV the user attached is staged automatically, the
// report is saved as an artifact (LangGraph BaseStore) with a primary output, and a later run in the same thread —
// new graph instance, workspace deleted — stages the artifact back by reference. Bad references are refused before
// anything runs.
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  InMemoryStore,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  type BaseStore,
} from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createSkillsInterceptor, createSkillsMiddleware } from "@skillgraph/langgraph";
import { createShellHook, type ShellHook } from "@skillgraph/shell";
import { RecordingChatModel, type ScriptedReply } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { REPO_ROOT } from "./support/shared-paths.js";

const csv = "region,amount\nnorth,10\nsouth,5.5\n";
const attached = new HumanMessage({
  content: [
    { type: "text", text: "Build a report from the attached CSV" },
    {
      type: "file",
      mimeType: "text/csv",
      data: Buffer.from(csv).toString("base64"),
      metadata: { filename: "sales.csv" },
    },
  ],
});

const firstTurn: ScriptedReply[] = [
  { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
  {
    toolCalls: [
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: 'scripts/build-report.mjs in/attachments/sales.csv --title "Q3 sales"',
          outputs: { save_as_artifacts: true, primary: "out/report.md", inline: false },
        },
      },
    ],
  },
  { content: "Saved the report as an artifact." },
];
const secondTurn: ScriptedReply[] = [
  { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
  {
    toolCalls: [
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/data.csv",
          inputs: [
            { from: "artifact://report.md", to: "in/previous.md" },
            { from: "skill://report-builder/SKILL.md", to: "in/skill.md" },
          ],
          files: [{ path: "in/data.csv", content: csv }],
        },
      },
    ],
  },
  { content: "Compared with the previous report." },
];
const refusedInputs: ScriptedReply[] = [
  { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
  {
    toolCalls: [
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "artifact://missing.md" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "attachment://nope.csv" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "skill://report-builder/../../../etc/passwd" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "skill://some-other-skill/SKILL.md" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "https://example.com/x" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "workspace://in/../../x" }],
        },
      },
      {
        name: "run_skill_script",
        args: {
          skill: "report-builder",
          command: "scripts/build-report.mjs in/x.csv",
          inputs: [{ from: "skill://report-builder/SKILL.md", to: ".git/config" }],
        },
      },
    ],
  },
  { content: "done" },
];

async function build(
  shape: "interceptor" | "middleware",
  script: ScriptedReply[],
  shared: { checkpointer: MemorySaver; store: BaseStore; hook: ShellHook },
) {
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(REPO_ROOT, "examples/skills"))] });
  const model = new RecordingChatModel(script);
  if (shape === "interceptor") {
    const skills = createSkillsInterceptor({ skills: registry, hooks: [shared.hook] });
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
    const graph = new StateGraph(State)
      .addNode("agent", skills.callModel(model, { systemPrompt: "You build reports." }))
      .addNode("tools", skills.toolNode())
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: END })
      .addEdge("tools", "agent")
      .compile({ checkpointer: shared.checkpointer, store: shared.store });
    return graph;
  }
  return createAgent({
    model,
    tools: [],
    systemPrompt: "You build reports.",
    middleware: [createSkillsMiddleware({ skills: registry, hooks: [shared.hook] })],
    checkpointer: shared.checkpointer,
    store: shared.store,
  });
}

function results(messages: unknown[]): Array<Record<string, any>> {
  return messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === "run_skill_script")
    .map((message) => JSON.parse(String(message.content)));
}

describe.each(["interceptor", "middleware"] as const)("files in and out, artifacts (%s)", (shape) => {
  it("stages an attachment, saves the report as an artifact, and stages it back in a later run after the workspace is gone", async () => {
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(REPO_ROOT, "examples/skills"))] });
    const shared = {
      checkpointer: new MemorySaver(),
      store: new InMemoryStore(),
      hook: createShellHook({ skills: registry }),
    };
    const config = { configurable: { thread_id: `artifacts-${shape}` } };
    try {
      const first = await (await build(shape, firstTurn, shared)).invoke({ messages: [attached] }, config);
      const [run] = results(first.messages);
      expect(run).toMatchObject({
        status: "ok",
        primary_output: { path: "out/report.md", mime_type: "text/markdown" },
      });
      expect(run!.primary_output.content).toBeUndefined(); // inline: false
      expect(run!.artifacts).toEqual([
        expect.objectContaining({ name: "report.md", version: 1, ref: "artifact://report.md@1" }),
      ]);
      const report = readFileSync(join(shared.hook.workspacePath(`artifacts-${shape}`), "out/report.md"), "utf8");
      expect(report).toContain("# Q3 sales");

      await shared.hook.removeWorkspace(`artifacts-${shape}`);
      const second = await (
        await build(shape, secondTurn, shared)
      ).invoke({ messages: [{ role: "user", content: "Compare with last time" }] }, config);
      expect(results(second.messages).at(-1)).toMatchObject({ status: "ok" });
      const workspace = shared.hook.workspacePath(`artifacts-${shape}`);
      expect(readFileSync(join(workspace, "in/previous.md"), "utf8")).toBe(report);
      expect(readFileSync(join(workspace, "in/skill.md"), "utf8")).toContain("name: report-builder");
      // the attachment of the first turn is still in the history, and staged again into the fresh workspace
      expect(existsSync(join(workspace, "in/attachments/sales.csv"))).toBe(true);
    } finally {
      await shared.hook.dispose();
    }
  });

  it("refuses bad input references before anything runs", async () => {
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(REPO_ROOT, "examples/skills"))] });
    const shared = {
      checkpointer: new MemorySaver(),
      store: new InMemoryStore(),
      hook: createShellHook({ skills: registry, stageAttachments: false }),
    };
    try {
      const final = await (
        await build(shape, refusedInputs, shared)
      ).invoke({ messages: [{ role: "user", content: "go" }] }, { configurable: { thread_id: `refused-${shape}` } });
      const refused = results(final.messages);
      expect(refused).toHaveLength(7);
      for (const result of refused) expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
      expect(existsSync(join(shared.hook.workspacePath(`refused-${shape}`), "out/report.md"))).toBe(false);
    } finally {
      await shared.hook.dispose();
    }
  });
});
