// The shell as its own createAgent middleware, composed beside the skills middleware (ChatOpenAI over HTTP to the
// scripted OpenAI-compatible server): the shell tools appear once a skill that uses them is read (the skills state is
// shared), a skill's script runs and its report comes back, a command needing approval interrupts and runs once
// resumed with Command({ resume }), and a denied command (a refused approval, a denied program) never runs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createSkillsMiddleware } from "@skillgraph/langgraph";
import { createShellMiddleware, type ShellHookOptions, type ShellMiddleware } from "@skillgraph/shell";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ScriptedReply,
} from "./support/openai-compatible-server.js";
import { REPO_ROOT } from "./support/shared-paths.js";

const csv = "region,amount\nnorth,10\nsouth,5.5\n";
const readSkill: ScriptedReply = { toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] };
const runScript: ScriptedReply = {
  toolCalls: [
    {
      name: "run_skill_script",
      arguments: {
        skill: "report-builder",
        command: 'scripts/build-report.mjs in/sales.csv --title "Q3 sales"',
        files: [{ path: "in/sales.csv", content: csv }],
      },
    },
  ],
};

let openServer: OpenAICompatibleServer | undefined;
let openShell: ShellMiddleware | undefined;
afterEach(async () => {
  await openServer?.close();
  await openShell?.dispose();
  openServer = undefined;
  openShell = undefined;
});

async function agentWith(script: ScriptedReply[], options: Partial<ShellHookOptions> = {}) {
  const server = await startOpenAICompatibleServer({ script });
  openServer = server;
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(REPO_ROOT, "examples/skills"))] });
  const shell = createShellMiddleware({ skills: registry, ...options });
  openShell = shell;
  const model = new ChatOpenAI({ model: "test-model", apiKey: "test", configuration: { baseURL: server.url } });
  const agent = createAgent({
    model,
    tools: [],
    systemPrompt: "You build reports.",
    middleware: [createSkillsMiddleware({ skills: registry }), shell],
    checkpointer: new MemorySaver(),
  });
  return { agent, server, shell };
}

function toolMessages(messages: unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

const ask = { messages: [{ role: "user", content: "Summarize my sales CSV" }] };

describe("createShellMiddleware beside createSkillsMiddleware", () => {
  it("offers run_skill_script once the skill is read, runs the skill's script and returns its report", async () => {
    const { agent, server, shell } = await agentWith([readSkill, runScript, "The report is in out/report.md."]);
    const config = { configurable: { thread_id: "middleware-run" } };
    const final = await agent.invoke(ask, config);
    expect(server.errors).toEqual([]);
    expect(server.requests[0]!.toolNames).toContain("read_skill");
    expect(server.requests[0]!.toolNames).not.toContain("run_skill_script");
    expect(server.requests[1]!.toolNames).toContain("run_skill_script");
    const [, ran] = toolMessages(final.messages);
    expect(ran!.name).toBe("run_skill_script");
    const result = JSON.parse(String(ran!.content)) as {
      status: string;
      output_files: Array<{ path: string; content: string }>;
    };
    expect(result.status).toBe("ok");
    expect(result.output_files.map((file) => file.path)).toEqual(["out/report.md"]);
    expect(result.output_files[0]!.content).toContain("# Q3 sales");
    expect(existsSync(join(shell.workspacePath("middleware-run"), "out/report.md"))).toBe(true);
    expect(final.messages.at(-1)?.content).toBe("The report is in out/report.md.");
  });

  it("refuses run_skill_script before the skill is read, without running it", async () => {
    const { agent, shell } = await agentWith([runScript, "I could not run it."]);
    const final = await agent.invoke(ask, { configurable: { thread_id: "middleware-early" } });
    const [refused] = toolMessages(final.messages);
    expect(refused!.status).toBe("error");
    expect(String(refused!.content)).toMatch(/read_skill/);
    expect(existsSync(join(shell.workspacePath("middleware-early"), "out/report.md"))).toBe(false);
  });

  it("interrupts a command needing approval and runs it once resumed with { approved: true }", async () => {
    const { agent, shell } = await agentWith([readSkill, runScript, "Done."], { requireApproval: [/build-report/] });
    const config = { configurable: { thread_id: "middleware-approve" } };
    await agent.invoke(ask, config);
    const snapshot = (await agent.getState(config)) as unknown as {
      tasks: Array<{ interrupts: Array<{ value?: unknown }> }>;
    };
    const interrupts = snapshot.tasks.flatMap((task) => task.interrupts);
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0]?.value).toMatchObject({
      type: "skillgraph/shell-approval",
      tool: "run_skill_script",
      skill: "report-builder",
    });
    const report = join(shell.workspacePath("middleware-approve"), "out/report.md");
    expect(existsSync(report)).toBe(false);
    const final = await agent.invoke(new Command({ resume: { approved: true } }), config);
    const ran = toolMessages(final.messages).find((message) => message.name === "run_skill_script");
    expect(JSON.parse(String(ran!.content))).toMatchObject({ status: "ok", exit_code: 0 });
    expect(existsSync(report)).toBe(true);
    expect(final.messages.at(-1)?.content).toBe("Done.");
  });

  it("refuses the command when the approval is denied, and a denied program before anything runs", async () => {
    const denied: ScriptedReply = { toolCalls: [{ name: "shell", arguments: { command: "sudo ls" } }] };
    const { agent, shell } = await agentWith([readSkill, runScript, denied, "Stopped."], {
      requireApproval: [/build-report/],
    });
    const config = { configurable: { thread_id: "middleware-deny" } };
    await agent.invoke(ask, config);
    const final = await agent.invoke(new Command({ resume: { approved: false, reason: "not now" } }), config);
    const [, notApproved, sudo] = toolMessages(final.messages);
    expect(JSON.parse(String(notApproved!.content))).toMatchObject({
      status: "refused",
      reason: "approval-denied",
      message: expect.stringContaining("not now"),
    });
    expect(existsSync(join(shell.workspacePath("middleware-deny"), "out/report.md"))).toBe(false);
    expect(sudo!.name).toBe("shell");
    expect(sudo!.status).toBe("error");
    expect(String(sudo!.content)).toMatch(/refused: denied/);
  });
});
