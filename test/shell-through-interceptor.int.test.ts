// The report-builder example skill, run end to end through the SkillsInterceptor with the shell hook, under both
// interceptor shapes: the script's tool appears only after read_skill, an early call is blocked and never runs,
// and after the skill is read the script runs (bubblewrap when available) and its report comes back.
import { ToolMessage } from "@langchain/core/messages";
import { END, MemorySaver, MessagesAnnotation, Annotation, START, StateGraph } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createSkillsInterceptor, createSkillsMiddleware } from "@skillgraph/langgraph";
import { createShellHook } from "@skillgraph/shell";
import { RecordingChatModel, type ScriptedReply } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { REPO_ROOT } from "./support/shared-paths.js";

const csv = "region,amount\nnorth,10\nsouth,5.5\n";
const runScript: ScriptedReply = {
  toolCalls: [
    {
      name: "run_skill_script",
      args: {
        skill: "report-builder",
        command: 'scripts/build-report.mjs in/sales.csv --title "Q3 sales"',
        files: [{ path: "in/sales.csv", content: csv }],
      },
    },
  ],
};
const script: ScriptedReply[] = [
  runScript,
  { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
  runScript,
  { content: "The report is in out/report.md." },
];

async function setup() {
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(REPO_ROOT, "examples/skills"))] });
  const hook = createShellHook({ skills: registry });
  return { registry, hook, model: new RecordingChatModel(script) };
}

const shapes = {
  async interceptor() {
    const { registry, hook, model } = await setup();
    const skills = createSkillsInterceptor({ skills: registry, hooks: [hook] });
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
    const graph = new StateGraph(State)
      .addNode("agent", skills.callModel(model, { systemPrompt: "You build reports." }))
      .addNode("tools", skills.toolNode())
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: END })
      .addEdge("tools", "agent")
      .compile({ checkpointer: new MemorySaver() });
    return { graph, hook, model };
  },
  async middleware() {
    const { registry, hook, model } = await setup();
    const graph = createAgent({
      model,
      tools: [],
      systemPrompt: "You build reports.",
      middleware: [createSkillsMiddleware({ skills: registry, hooks: [hook] })],
      checkpointer: new MemorySaver(),
    });
    return { graph, hook, model };
  },
};

describe.each(Object.keys(shapes) as Array<keyof typeof shapes>)(
  "report-builder through the SkillsInterceptor with the shell hook (%s)",
  (shape) => {
    it("blocks the script before read_skill, then runs it and returns the collected report", async () => {
      const { graph, hook, model } = await shapes[shape]();
      const threadId = `report-${shape}`;
      try {
        const final = await graph.invoke(
          { messages: [{ role: "user", content: "Summarize my sales CSV" }] },
          { configurable: { thread_id: threadId } },
        );
        const toolMessages = (final.messages as unknown[]).filter((message): message is ToolMessage =>
          ToolMessage.isInstance(message),
        );
        expect(toolMessages.map((message) => message.name)).toEqual([
          "run_skill_script",
          "read_skill",
          "run_skill_script",
        ]);

        // 1. Before the skill is read the script tool is not offered, and a call to it is answered, not run.
        expect(model.calls[0]!.tools).not.toContain("run_skill_script");
        expect(toolMessages[0]!.status).toBe("error");
        expect(String(toolMessages[0]!.content)).toMatch(/read_skill/);
        // 2. Reading the skill unlocks the tool for the next request.
        expect(model.calls[2]!.tools).toContain("run_skill_script");
        // 3. The script ran once (the blocked call never did) and its report came back.
        const result = JSON.parse(String(toolMessages[2]!.content)) as {
          status: string;
          exit_code: number;
          output_files: Array<{ path: string; content: string }>;
        };
        expect(result).toMatchObject({ status: "ok", exit_code: 0 });
        expect(result.output_files.map((file) => file.path)).toEqual(["out/report.md"]);
        expect(result.output_files[0]!.content).toContain("# Q3 sales");
        expect(existsSync(join(hook.workspacePath(threadId), "out/report.md"))).toBe(true);
        expect(final.messages.at(-1)?.content).toBe("The report is in out/report.md.");
      } finally {
        await hook.dispose();
      }
    });
  },
);
