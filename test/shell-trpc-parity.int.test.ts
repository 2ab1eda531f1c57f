// What a skill written for trpc-agent-go's `skill_run` does here, through a real SkillsInterceptor graph with a
// LangGraph store, under both executors: Go-style `outputs` keys (and any other key refused by name), the hook's
// force-save of every output, `staged_inputs` in the result, `SKILLS_DIR` and `RUN_DIR`, `mode: link` refused with
// what to write instead, attachments that reference an artifact (`file_id: artifact://...`), and `ref` on every
// output file (staged back by it).
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  InMemoryStore,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createSkillsInterceptor } from "@skillgraph/langgraph";
import { createShellHook, type ShellHookOptions } from "@skillgraph/shell";
import { RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { REPO_ROOT } from "./support/shared-paths.js";

const skillsDir = join(REPO_ROOT, "examples/skills");
const hooks: Array<{ dispose(): Promise<void> }> = [];
afterAll(async () => {
  for (const hook of hooks) await hook.dispose();
});

/** Runs `calls` (one run_skill_script call per model reply) in one thread; returns each call's parsed result. */
async function runCalls(
  executor: "local" | "bubblewrap",
  calls: Array<Record<string, unknown>>,
  options: { hook?: Partial<ShellHookOptions>; messages?: BaseMessage[]; thread?: string } = {},
) {
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });
  const hook = createShellHook({ skills: registry, executor, ...options.hook });
  hooks.push(hook);
  const model = new RecordingChatModel([
    { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
    ...calls.map((args) =>
      "read_output" in args
        ? { toolCalls: [{ name: "read_output", args: args.read_output as Record<string, unknown> }] }
        : { toolCalls: [{ name: "run_skill_script", args: { skill: "report-builder", ...args } }] },
    ),
    { content: "done" },
  ]);
  const skills = createSkillsInterceptor({ skills: registry, hooks: [hook] });
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  const graph = new StateGraph(State)
    .addNode("agent", skills.callModel(model))
    .addNode("tools", skills.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: END })
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver(), store: new InMemoryStore() });
  const thread = options.thread ?? `trpc-${executor}-${Math.random().toString(36).slice(2)}`;
  const final = await graph.invoke(
    { messages: options.messages ?? [new HumanMessage("go")] },
    { configurable: { thread_id: thread } },
  );
  const results = (final.messages as BaseMessage[])
    .filter(
      (message): message is ToolMessage =>
        ToolMessage.isInstance(message) && (message.name === "run_skill_script" || message.name === "read_output"),
    )
    .map((message) => JSON.parse(String(message.content)) as Record<string, any>);
  return { results, workspace: hook.workspacePath(thread) };
}

const writeTwo = "echo a > out/a.txt && echo b > out/b.txt && echo c > out/c.md";

describe.each(["local", "bubblewrap"] as const)("a trpc-agent-go skill_run call (%s)", (executor) => {
  it("reads Go-style outputs keys and 'save', and refuses any other key by name", async () => {
    const { results } = await runCalls(executor, [
      { command: writeTwo, outputs: { Globs: ["$OUTPUT_DIR/*.txt"], MaxFiles: 1, Save: true, Inline: false } },
      { command: writeTwo, outputs: { globs: ["*.md"], save: true } },
      { command: writeTwo, outputs: { Globs: ["*.md"], MaxFilez: 3 } },
      { command: writeTwo, outputs: { Globs: ["*.md"], globs: ["*.txt"] } },
    ]);
    expect(results[0]).toMatchObject({ status: "ok", skipped_count: 1 });
    expect(results[0]!.output_files).toHaveLength(1);
    expect(results[0]!.output_files[0].content).toBeUndefined();
    expect(results[0]!.artifacts).toEqual([expect.objectContaining({ version: 1 })]);
    expect(results[1]!.artifacts).toEqual([expect.objectContaining({ name: "c.md", version: 1 })]);
    expect(results[2]).toMatchObject({ status: "refused", reason: "invalid-input" });
    expect(results[2]!.message).toContain("unknown key 'MaxFilez'");
    expect(results[3]!.message).toMatch(/'(Globs|globs)' and '(Globs|globs)' both set 'globs'; give one/);
  });

  it("saves every reported file when the hook forces it (artifacts.alwaysSave), though the call did not ask", async () => {
    const { results } = await runCalls(executor, [{ command: writeTwo, outputs: { globs: ["a.txt"] } }], {
      hook: { artifacts: { alwaysSave: true } },
    });
    expect(results[0]!.artifacts).toEqual([expect.objectContaining({ name: "a.txt", version: 1 })]);
    const plain = await runCalls(executor, [{ command: writeTwo, outputs: { globs: ["a.txt"] } }]);
    expect(plain.results[0]!.artifacts).toBeUndefined();
  });

  it("sets SKILLS_DIR (the skill is $SKILLS_DIR/<its folder>) and a RUN_DIR of the run's own", async () => {
    const { results, workspace } = await runCalls(executor, [
      {
        command:
          'head -n 2 "$SKILLS_DIR/report-builder/SKILL.md" > out/skill.txt && echo kept > "$RUN_DIR/log.txt" && echo "$RUN_DIR" > out/run.txt',
      },
      { command: 'echo "$RUN_DIR" > out/run.txt' },
    ]);
    expect(results[0]).toMatchObject({ status: "ok" });
    const files = Object.fromEntries(results[0]!.output_files.map((file: any) => [file.path, file.content]));
    expect(files["out/skill.txt"]).toContain("name: report-builder");
    const runDir = (files["out/run.txt"] as string).trim();
    expect(runDir).toMatch(/\/runs\/run-[0-9a-f]{12}$/);
    const second = (results[1]!.output_files[0].content as string).trim();
    expect(second).not.toBe(runDir);
    // the run that wrote something keeps its folder; an empty one is removed
    const runs = readdirSync(join(workspace, "runs"));
    expect(runs).toEqual([runDir.split("/").pop()]);
    expect(existsSync(join(workspace, "runs", runs[0]!, "log.txt"))).toBe(true);
  });

  it("reports staged_inputs, refuses mode 'link' saying what to write instead, and puts a ref on every output", async () => {
    const { results } = await runCalls(executor, [
      { command: "echo hi > out/note.txt" },
      { command: "cat in/n.txt", inputs: [{ from: "workspace://out/note.txt", to: "in/n.txt", mode: "link" }] },
      {
        command: "cat in/n.txt in/skill.md > out/both.txt",
        inputs: [
          { from: "workspace://out/note.txt", to: "in/n.txt", mode: "copy" },
          { from: "skill://report-builder/SKILL.md", to: "in/skill.md" },
        ],
      },
    ]);
    expect(results[0]!.output_files[0]).toMatchObject({ path: "out/note.txt", ref: "workspace://out/note.txt" });
    expect(results[1]).toMatchObject({ status: "refused", reason: "staging-refused" });
    expect(results[1]!.message).toContain("mode 'link' is not supported");
    expect(results[1]!.message).toContain("leave mode out");
    expect(results[2]).toMatchObject({ status: "ok" });
    expect(results[2]!.staged_inputs).toEqual([
      { from: "workspace://out/note.txt", path: "in/n.txt", size: 3 },
      { from: "skill://report-builder/SKILL.md", path: "in/skill.md", size: expect.any(Number) },
    ]);
    expect(results[2]!.output_files[0].content).toContain("hi\n---");
  });

  it("reads an output back by its ref with read_output, a saved artifact too; a symlink is never followed", async () => {
    const { results } = await runCalls(executor, [
      {
        command: "seq 1 3000 > out/numbers.txt && ln -s numbers.txt out/link.txt",
        outputs: { globs: ["numbers.txt"], inline: false, save_as_artifacts: true },
      },
      { read_output: { ref: "workspace://out/numbers.txt", max_bytes: 1000 } },
      { read_output: { ref: "workspace://out/numbers.txt", offset: 1000 } },
      { read_output: { ref: "artifact://numbers.txt@1", offset: 13_883 } },
      { read_output: { ref: "workspace://out/link.txt" } },
    ]);
    expect(results[0], JSON.stringify(results[0])).toMatchObject({ status: "ok" });
    const ref = results[0]!.output_files[0].ref as string;
    expect(ref).toBe("workspace://out/numbers.txt");
    expect(results[1]).toMatchObject({ status: "ok", ref, size: 13_893, offset: 0, next_offset: 1000 });
    expect((results[1]!.content as string).startsWith("1\n2\n3\n")).toBe(true);
    expect((results[1]!.content as string) + results[2]!.content).toBe(
      Array.from({ length: 3000 }, (_, index) => `${index + 1}\n`).join(""),
    );
    expect(results[2]!.next_offset).toBeUndefined();
    expect(results[3]).toMatchObject({ status: "ok", content: "2999\n3000\n", mime_type: "text/plain" });
    expect(results[4]).toMatchObject({ status: "refused", reason: "symlink-escape" });
  });

  it("stages a file the user attached by artifact reference (file_id: artifact://...)", async () => {
    const thread = `attached-${executor}`;
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });
    const store = new InMemoryStore();
    const hook = createShellHook({ skills: registry, executor, artifacts: { store } });
    hooks.push(hook);
    const skills = createSkillsInterceptor({ skills: registry, hooks: [hook] });
    const script = (args: Record<string, unknown>) => [
      { toolCalls: [{ name: "read_skill", args: { name: "report-builder" } }] },
      { toolCalls: [{ name: "run_skill_script", args: { skill: "report-builder", ...args } }] },
      { content: "done" },
    ];
    const graphOf = (model: RecordingChatModel) => {
      const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
      return new StateGraph(State)
        .addNode("agent", skills.callModel(model))
        .addNode("tools", skills.toolNode())
        .addEdge(START, "agent")
        .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: END })
        .addEdge("tools", "agent")
        .compile({ checkpointer: new MemorySaver() });
    };
    const config = { configurable: { thread_id: thread } };
    // an upload kept as an artifact of the thread (as trpc-agent-go keeps uploads in its artifact service)
    await graphOf(
      new RecordingChatModel(
        script({ command: "printf 'q,1\\n' > out/upload.csv", outputs: { save_as_artifacts: true } }),
      ),
    ).invoke({ messages: [new HumanMessage("save it")] }, config);
    await hook.removeWorkspace(thread);
    const message = new HumanMessage({
      content: [
        { type: "text", text: "use my file" },
        { type: "file", file_id: "artifact://upload.csv", mimeType: "text/csv" } as never,
        { type: "file", file_id: "artifact://missing.csv", mimeType: "text/csv" } as never,
      ],
    });
    const final = await graphOf(new RecordingChatModel(script({ command: "cat in/attachments/upload.csv" }))).invoke(
      { messages: [message] },
      config,
    );
    const result = JSON.parse(
      String(
        (final.messages as BaseMessage[])
          .filter((m) => ToolMessage.isInstance(m) && m.name === "run_skill_script")
          .at(-1)!.content,
      ),
    );
    expect(result).toMatchObject({ status: "ok", stdout: "q,1\n" });
    expect(result.staged_inputs).toEqual([
      { from: "artifact://upload.csv", path: "in/attachments/upload.csv", size: 4 },
    ]);
    expect(result.attachments_skipped).toEqual([
      { name: "missing.csv", reason: expect.stringContaining("no such artifact") },
    ]);
  });
});
