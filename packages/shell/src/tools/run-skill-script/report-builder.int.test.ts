import path from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Annotation, END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createShellHook } from "@skillgraph/shell";

const skillsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../../examples/skills");
const csv = 'region,amount\nnorth,10\n"south, east",5.5\nwest,4.5\n';

// A plain StateGraph: the graph state says which skills were read; the shell tools read it from inside the ToolNode.
const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  loadedSkills: Annotation<string[]>({ reducer: (_left, right) => right, default: () => [] }),
});

async function runReportBuilder(
  executor: "local" | "bubblewrap",
  loadedSkills: string[],
  command = 'scripts/build-report.mjs in/sales.csv --title "Q3 sales"',
) {
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });
  const hook = createShellHook({ skills: registry, executor });
  const model = fakeModel()
    .respondWithTools([
      {
        name: "run_skill_script",
        args: { skill: "report-builder", command, files: [{ path: "in/sales.csv", content: csv }] },
        id: "call-1",
      },
    ])
    .respond(new AIMessage("The report is in out/report.md."));
  const graph = new StateGraph(State)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(hook.tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END))
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: `report-${executor}` } };
  const final = await graph.invoke({ messages: [new HumanMessage("Summarize my sales CSV")], loadedSkills }, config);
  await hook.dispose();
  const toolMessage = final.messages.find((message) => ToolMessage.isInstance(message)) as ToolMessage;
  return {
    final,
    result: JSON.parse(String(toolMessage.content)),
    workspace: hook.workspacePath(`report-${executor}`),
  };
}

describe.each(["local", "bubblewrap"] as const)("report-builder example end to end (%s)", (executor) => {
  it("runs the skill's script from a scripted model and reports out/report.md", async () => {
    const { final, result } = await runReportBuilder(executor, ["report-builder"]);
    expect(result).toMatchObject({
      status: "ok",
      exit_code: 0,
      executor,
      stdout: "wrote out/report.md: 3 rows, 2 columns\n",
    });
    const [report] = result.output_files;
    expect(report).toMatchObject({ path: "out/report.md", mime_type: "text/markdown" });
    expect(report.content).toContain("# Q3 sales");
    expect(report.content).toContain("- amount: 20");
    expect(report.content).toContain("| south, east | 5.5 |");
    expect(final.messages.at(-1)?.content).toBe("The report is in out/report.md.");
  });

  it("expands $SKILL_DIR to where the skill folder is for the command", async () => {
    const { result } = await runReportBuilder(
      executor,
      ["report-builder"],
      'node "$SKILL_DIR/scripts/build-report.mjs" in/sales.csv --title=Sales',
    );
    expect(result).toMatchObject({ status: "ok" });
    // the line as typed: bash expands $SKILL_DIR to /skill in the sandbox, to the folder itself locally
    expect(result.command).toBe('node "$SKILL_DIR/scripts/build-report.mjs" in/sales.csv --title=Sales');
    expect(result.output_files[0].content).toContain("# Sales");
  });

  it("refuses to run the script before the skill was read", async () => {
    const { result } = await runReportBuilder(executor, []);
    expect(result).toMatchObject({ status: "refused", reason: "skill-not-read" });
  });
});
