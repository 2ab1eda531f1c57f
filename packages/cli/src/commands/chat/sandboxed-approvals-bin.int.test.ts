// Ollama's example skill line through the built `skillgraph` binary (packages/cli/dist/bin.js as a child process)
// against the local OpenAI-compatible server: under bubblewrap `chat -p` runs it with no flag and no question; with
// `--unsafe-local` the same line asks in the REPL (and runs after `y`), and a one-shot run refuses it with a message
// saying why, without running it. The script leaves a mark in its skill folder when it runs: the sandbox mounts that
// folder read-only, the local executor does not, so a mark proves a local run and its absence proves none.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../../../../../test/support/openai-compatible-server.js";
import { REPO_ROOT } from "../../../../../test/support/shared-paths.js";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { createBubblewrapExecutor } from "@skillgraph/shell";

const bin = join(REPO_ROOT, "packages/cli/dist/bin.js");
const bubblewrap = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

/** The line Ollama's example skill tells the model to run. */
const line = "python3 scripts/calculate.py '6 * 7'";

const dir = writeTree({
  "skills/calculator/SKILL.md":
    "---\nname: calculator\ndescription: Evaluates arithmetic expressions exactly.\n---\n\n# Calculator\n\n" +
    "## Instructions\nRun `python3 scripts/calculate.py '<expression>'` and answer with its output.\n",
  "skills/calculator/scripts/calculate.py":
    "import ast, os, sys\n" +
    "try:\n" +
    "    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ran.log'), 'a') as log:\n" +
    "        log.write(sys.argv[1] + '\\n')\n" +
    "except OSError:\n    pass\n" +
    "tree = ast.parse(sys.argv[1], mode='eval').body\n" +
    "assert isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Mult)\n" +
    "print(tree.left.value * tree.right.value)\n",
});
const mark = join(dir, "skills/calculator/ran.log");
const home = join(dir, "home");

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(mark, { force: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built CLI's `chat` in the skill's folder; resolves when the process has exited. */
function chat(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, "chat", "--skills", "skills", "--ephemeral", ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin", HOME: home, NO_COLOR: "1", OPENAI_BASE_URL: server!.url },
    stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveRun) => child.on("close", (code) => resolveRun({ code, stdout, stderr })));
}

/** The run_skill_script result the model was sent in request `index`, parsed. */
const runResult = (index: number) => {
  const tools = server!.requests[index]!.messages.filter((message) => message.role === "tool");
  return JSON.parse(textOf(tools.at(-1)!.content)) as Record<string, unknown>;
};

const script = [
  { toolCalls: [{ name: "read_skill", arguments: { name: "calculator" } }] },
  { toolCalls: [{ name: "run_skill_script", arguments: { skill: "calculator", command: line } }] },
  "The answer is 42.",
];

describe("Ollama's example skill line through dist/bin.js", () => {
  it("the built CLI is there (rebuild with turbo run build)", () => {
    expect(existsSync(bin), `${bin} is missing: run the build first`).toBe(true);
  });

  it.skipIf(!bubblewrap)("runs in `chat -p` under bubblewrap with no flag and no question", async () => {
    server = await startOpenAICompatibleServer({ script });
    const result = await chat(["-p", "what is 6 * 7?"]);
    expect(server.errors).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/approv|denied|WITHOUT a sandbox/);
    expect(result.stderr).toContain("[tool] run_skill_script -> exit 0");
    expect(runResult(2)).toMatchObject({ status: "ok", stdout: "42\n", executor: "bubblewrap" });
    expect(result.stdout).toBe("The answer is 42.\n");
    expect(existsSync(mark)).toBe(false); // the skill folder is read-only in the sandbox
  });

  it("under --unsafe-local the REPL asks for the same line and runs it after `y`", async () => {
    server = await startOpenAICompatibleServer({ script });
    const result = await chat(["--unsafe-local"], "what is 6 * 7?\ny\n");
    expect(server.errors).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("warning: scripts run on this machine WITHOUT a sandbox (--unsafe-local)");
    expect(
      result.stderr.match(/Run `python3 scripts\/calculate\.py '6 \* 7'` \(skill calculator, local\)\? /g),
    ).toEqual(["Run `python3 scripts/calculate.py '6 * 7'` (skill calculator, local)? "]);
    expect(runResult(2)).toMatchObject({ status: "ok", stdout: "42\n", executor: "local" });
    expect(readFileSync(mark, "utf8")).toBe("6 * 7\n");
  });

  it("under --unsafe-local a one-shot run refuses the line with a message saying why, and does not run it", async () => {
    server = await startOpenAICompatibleServer({ script });
    const result = await chat(["--unsafe-local", "-p", "what is 6 * 7?"]);
    expect(server.errors).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "denied (one-shot runs deny commands that need approval; pass --approve-all to run them): " +
        "`python3 scripts/calculate.py '6 * 7'` (skill calculator, local). Without a sandbox (--unsafe-local, or " +
        "shell.executor: unsafe-local) every command its skill does not pre-approve needs approval.",
    );
    expect(runResult(2)).toMatchObject({ status: "refused", reason: "approval-denied" });
    expect(runResult(2)).not.toHaveProperty("stdout");
    expect(existsSync(mark)).toBe(false);
  });
});
