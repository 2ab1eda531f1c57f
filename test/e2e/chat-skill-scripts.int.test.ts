// `skillgraph chat` as a child process against the local OpenAI-compatible server: the report-builder skill's script
// runs in the sandbox through the shell hook (pre-approved by its allowed-tools), commands that leave the sandbox need
// approval (one-shot: denied by default with a message naming --approve-all), `$skill` loads a skill before the model runs, and
// `skillgraph prompt --chat` prints exactly the system prompt chat sends.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "../../packages/cli/src/__fixtures__/capture-io.js";
import { runCli as runCliInProcess } from "../../packages/cli/src/run-cli.js";
import { createBubblewrapExecutor } from "../../packages/shell/src/index.js";
import {
  scriptFromFile,
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../support/openai-compatible-server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const sandboxed = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();
/** Where this machine runs scripts: the sandbox when bubblewrap works, else the local executor (opted in). */
const executorFlags = sandboxed ? [] : ["--unsafe-local"];

let home: string;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "skillgraph-chat-scripts-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function chat(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ["--conditions=@skillgraph/source", "--import", "tsx", "packages/cli/src/bin.ts", "chat", "--ephemeral", ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin", HOME: home, NO_COLOR: "1", ...env },
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    },
  );
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveRun) => child.on("close", (code) => resolveRun({ code, stdout, stderr })));
}

const toolMessages = (s: OpenAICompatibleServer, index: number) =>
  s.requests[index]!.messages.filter((message) => message.role === "tool").map((message) => textOf(message.content));

describe("skill scripts in skillgraph chat", () => {
  it("the demo script's report-builder prompt runs the skill's script in the sandbox and returns the report", async () => {
    const { script } = await scriptFromFile(join(root, "test/e2e/__fixtures__/chat-demo-script.json"));
    // The demo plays release notes first (3 replies), then the report: start this server at the report.
    server = await startOpenAICompatibleServer({ script: script.slice(3) });
    // Only OPENAI_BASE_URL: a placeholder key is sent, as for Ollama / vLLM / llama.cpp.
    const result = await chat(
      ["-p", "Build a report from my sales CSV", "--skills", "examples/skills", ...executorFlags],
      { OPENAI_BASE_URL: server.url },
    );
    expect(server.errors).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("# Q3 sales");
    expect(result.stdout).toContain("| West | 9 | 2650 |");
    expect(result.stderr).toContain("[skill] loaded report-builder");
    expect(result.stderr).not.toContain("denied");
    const [runResult] = toolMessages(server, 2).slice(-1);
    const parsed = JSON.parse(runResult!) as {
      status: string;
      stdout: string;
      executor: string;
      output_files: Array<{ path: string; content: string }>;
    };
    expect(parsed.status).toBe("ok");
    expect(parsed.stdout).toBe("wrote out/report.md: 3 rows, 3 columns\n");
    expect(parsed.executor).toBe(sandboxed ? "bubblewrap" : "local");
    expect(parsed.output_files.find((file) => file.path === "out/report.md")?.content).toContain("- revenue: 8150");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer not-needed");
  });

  it("a command that leaves the sandbox is denied in a one-shot run, with a message naming --approve-all", async () => {
    // a program named by a variable cannot be judged before running: it asks under every executor and policy
    const command = 'p=ls; "$p" -a';
    const script = [
      { toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] },
      { toolCalls: [{ name: "run_skill_script", arguments: { skill: "report-builder", command } }] },
      "Could not list the files.",
    ];
    server = await startOpenAICompatibleServer({ script });
    const denied = await chat(["-p", "list the workspace", "--skills", "examples/skills", ...executorFlags], {
      OPENAI_BASE_URL: server.url,
    });
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stderr).toContain(
      `denied (one-shot runs deny commands that need approval; pass --approve-all to run them): \`${command}\` (skill report-builder`,
    );
    expect(toolMessages(server, 2).at(-1)).toContain("approval-denied");
    await server.close();

    server = await startOpenAICompatibleServer({ script });
    const approved = await chat(
      ["-p", "list the workspace", "--skills", "examples/skills", "--approve-all", ...executorFlags],
      { OPENAI_BASE_URL: server.url },
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`approved (--approve-all): \`${command}\``);
    expect(JSON.parse(toolMessages(server, 2).at(-1)!).status).toBe("ok");
  });

  it("$skill at the start of a prompt loads the skill before the model runs; prompt --chat prints the same system prompt", async () => {
    server = await startOpenAICompatibleServer({ script: ["Here are the notes."] });
    const result = await chat(
      ["-p", "$release-notes notes for v1.3.0", "--skills", "examples/skills", ...executorFlags],
      { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-x" },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("Here are the notes.\n");
    expect(result.stderr).toContain("[skill] loaded release-notes");
    // One model request, and it already carries the read_skill call and its result (the skill's instructions).
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(request!.messages[2]!.tool_calls?.[0]?.function.name).toBe("read_skill");
    expect(textOf(request!.messages[3]!.content)).toContain("release-notes");

    const preview = captureIO(root);
    expect(await runCliInProcess(["prompt", "--chat", "--skills", "examples/skills"], preview)).toBe(0);
    expect(preview.out()).toBe(`${request!.systemPrompt}\n`);
  });

  it("the REPL asks y / n / always: 'always' runs the command and is not asked again this session", async () => {
    const read = { toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] };
    const run = { toolCalls: [{ name: "run_skill_script", arguments: { skill: "report-builder", command: "ls -a" } }] };
    server = await startOpenAICompatibleServer({ script: [read, run, "Listed once.", read, run, "Listed twice."] });
    // `shell.approval: ask`: every command its skill does not pre-approve asks, even one that stays in the sandbox
    const agentFile = join(home, "ask.agent.yaml");
    await writeFile(agentFile, `skills: [${join(root, "examples/skills")}]\nshell:\n  approval: ask\n`);
    // Piped stdin: a message, the answer to the approval question ("a" = always), a second message (not asked again).
    const result = await chat(
      ["--agent", agentFile, ...executorFlags],
      { OPENAI_BASE_URL: server.url },
      "list it\na\nagain\n",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stderr.match(
        /Run `ls -a` \(skill report-builder, \w+\)\? \[y\]es \/ \[n\]o \/ \[a\]lways this session: a\n/g,
      ),
    ).toHaveLength(1);
    expect(result.stdout).toContain("Listed once.");
    expect(result.stdout).toContain("Listed twice.");
    for (const index of [2, 5]) expect(JSON.parse(toolMessages(server, index).at(-1)!).status).toBe("ok");
  });
});
