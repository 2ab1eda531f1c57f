// A session's files outlive its process: `skillgraph chat --session NAME` runs a skill's script that writes
// out/report.md, a second `chat --session NAME` process resumes the session and reads it back, chat says where the
// files are, `sessions delete` removes the workspace with the session, and no run (nor an --ephemeral one) leaves
// anything in the temporary folder.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createBubblewrapExecutor } from "../../packages/shell/src/index.js";
import {
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
const executorFlags = sandboxed ? [] : ["--unsafe-local"];

const home = mkdtempSync(join(tmpdir(), "skillgraph-session-ws-"));
// the children's temporary folder: nothing skillgraph makes may stay in it
const childTmp = mkdtempSync(join(tmpdir(), "skillgraph-session-tmp-"));
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(childTmp, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ["--conditions=@skillgraph/source", "--import", "tsx", "packages/cli/src/bin.ts", ...args],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "/usr/bin",
        HOME: home,
        TMPDIR: childTmp,
        NO_COLOR: "1",
        SKILLGRAPH_CHECKPOINT: `sqlite:${join(home, "sessions.db")}`,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

/** What the children left in their temporary folder (tsx, the test's TypeScript loader, keeps its cache there). */
const leftInTmp = () => readdirSync(childTmp).filter((name) => !name.startsWith("tsx-"));

const read = { toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] };
const build = {
  toolCalls: [
    {
      name: "run_skill_script",
      arguments: {
        skill: "report-builder",
        command: 'scripts/build-report.mjs in/sales.csv --title "Q3 sales"',
        files: [{ path: "in/sales.csv", content: "region,units\nNorth,12\nSouth,7\n" }],
      },
    },
  ],
};
const cat = {
  toolCalls: [{ name: "run_skill_script", arguments: { skill: "report-builder", command: "cat out/report.md" } }],
};

describe("a chat session's workspace", () => {
  it("a second process resuming the session reads the report the first one wrote; delete removes it", async () => {
    // A restarted local server counts its completion ids (chatcmpl-1, ...) and call ids from 1 again: the second
    // process talks to a new server, so its replies repeat the ids already stored in the session.
    server = await startOpenAICompatibleServer({ script: [read, build, "Built it."] });
    const first = await cli(
      ["chat", "--session", "q3", "-p", "build the report", "--skills", "examples/skills", ...executorFlags],
      {
        OPENAI_BASE_URL: server.url,
      },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("Built it.\n");
    const workspaces = join(home, "workspaces", "q3");
    // chat says where the files are, and shows the script's first output lines with the size
    expect(first.stderr).toMatch(new RegExp(`\\[files\\] in ${workspaces}/thread-[0-9a-f]+: out/report\\.md`));
    expect(first.stderr).toContain("[tool] run_skill_script -> exit 0,");
    expect(first.stderr).toContain("  | wrote out/report.md");
    expect(leftInTmp()).toEqual([]);

    await server.close();
    server = await startOpenAICompatibleServer({ script: [read, cat, "Here it is."] });
    const second = await cli(
      [
        "chat",
        "--session",
        "q3",
        "-p",
        "show me the report",
        "--skills",
        "examples/skills",
        "--approve-all",
        ...executorFlags,
      ],
      { OPENAI_BASE_URL: server.url },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain("resumed");
    // each answer printed once (LangGraph also emits a node's new messages at its end, with the runtime's id)
    expect(second.stdout).toBe("Here it is.\n");
    const catResult = JSON.parse(
      server.requests[2]!.messages.filter((message) => message.role === "tool")
        .map((message) => textOf(message.content))
        .at(-1)!,
    );
    expect(catResult).toMatchObject({ status: "ok" });
    expect(catResult.stdout).toContain("# Q3 sales");
    expect(leftInTmp()).toEqual([]);

    const deleted = await cli(["sessions", "delete", "q3"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`and its workspace ${workspaces}`);
    expect(existsSync(workspaces)).toBe(false);
  });

  it("an --ephemeral run keeps nothing: no session workspace, nothing in the temporary folder", async () => {
    server = await startOpenAICompatibleServer({ script: [read, build, "Built it."] });
    const result = await cli(
      ["chat", "--ephemeral", "-p", "build the report", "--skills", "examples/skills", ...executorFlags],
      {
        OPENAI_BASE_URL: server.url,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("out/report.md");
    expect(leftInTmp()).toEqual([]);
    // (the folder may hold what other tests left; an ephemeral run adds nothing to it)
    expect(existsSync(join(home, "workspaces")) ? readdirSync(join(home, "workspaces")) : []).toEqual([]);
  });

  it("a refused command shows its reason on the activity line", async () => {
    const refused = {
      toolCalls: [
        { name: "run_skill_script", arguments: { skill: "report-builder", command: "cat ../../etc/passwd" } },
      ],
    };
    server = await startOpenAICompatibleServer({ script: [read, refused, "Could not."] });
    const result = await cli(["chat", "--ephemeral", "-p", "try it", "--skills", "examples/skills", ...executorFlags], {
      OPENAI_BASE_URL: server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\[tool\] run_skill_script refused \([a-z-]+\): .+/);
  });
});
