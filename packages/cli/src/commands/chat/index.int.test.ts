import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../../../../../test/support/openai-compatible-server.js";
import type { CliIO } from "../../io/cli-io.js";
import { NO_ENDPOINT_MESSAGE } from "./chat-endpoint.js";
import { run } from "./index.js";
import { holdRefusingPort } from "../../../../../test/support/refusing-port.js";

const root = fileURLToPath(new URL("../../../../../", import.meta.url));
let home: string;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chat-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the command in-process with captured streams and a clean environment plus `env`. */
async function runChat(args: string[], env: NodeJS.ProcessEnv, stdin = "", cwd = root) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Readable.from([stdin]),
    env: { HOME: home, SKILLGRAPH_CHECKPOINT: `sqlite:${join(home, "sessions.db")}`, ...env },
    cwd,
    color: false,
    isTTY: false,
  };
  const code = await run(args, io);
  // Every chat is a session; its announcement line is checked by the session tests, not here.
  return { code, stdout: out, stderr: err.replace(/^session \S+ \((new|resumed)[^\n]*\n/m, "") };
}

async function writeSkill(dir: string, description: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "SKILL.md"),
    `---\nname: ${dir.split("/").at(-1)}\ndescription: ${description}\n---\n\nBody.\n`,
  );
}

describe("skillgraph chat (in-process)", () => {
  it("-p answers one prompt: tokens on stdout, skill load and tool lines on stderr, exit 0", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ name: "read_skill", arguments: { name: "sql-review" } }] }, "Add a WHERE clause."],
    });
    const result = await runChat(["-p", "Review DELETE FROM orders", "--skills", "examples/skills"], {
      OPENAI_BASE_URL: server.url,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Add a WHERE clause.\n");
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      '[tool] read_skill {"name":"sql-review"}',
      "[skill] loaded sql-review",
    ]);
    expect(server.requests[0]!.systemPrompt).toContain("sql-review");
    expect(server.requests.every((request) => request.stream)).toBe(true);
  });

  it("uses --system as the agent's own prompt, before the skills section", async () => {
    server = await startOpenAICompatibleServer({ script: ["ok"] });
    await runChat(["-p", "hi", "--skills", "examples/skills", "--system", "You are a pirate."], {
      OPENAI_BASE_URL: server.url,
    });
    expect(server.requests[0]!.systemPrompt).toMatch(/^You are a pirate\.\n\n/);
  });

  it("reads ./skills and the user's ~/.claude/skills when no --skills is given", async () => {
    const project = await mkdtemp(join(tmpdir(), "chat-project-"));
    const user = await mkdtemp(join(tmpdir(), "chat-user-"));
    try {
      await writeSkill(join(project, "skills", "project-skill"), "A skill of this project.");
      await writeSkill(join(user, ".claude", "skills", "user-skill"), "A skill of this user.");
      server = await startOpenAICompatibleServer({ script: ["ok"] });
      await runChat(["-p", "hi"], { OPENAI_BASE_URL: server.url, HOME: user }, "", project);
      expect(server.requests[0]!.systemPrompt).toContain("A skill of this project.");
      expect(server.requests[0]!.systemPrompt).toContain("A skill of this user.");
      expect(server.requests[0]!.systemPrompt).not.toContain("sql-review");
    } finally {
      await rm(project, { recursive: true, force: true });
      await rm(user, { recursive: true, force: true });
    }
  });

  it("without -p runs one turn per input line, lists skills on /skills and stops at /exit", async () => {
    server = await startOpenAICompatibleServer({ script: ["One.", "Two."] });
    const result = await runChat(
      ["--skills", "examples/skills"],
      { OPENAI_BASE_URL: server.url },
      "first\n/skills\nsecond\n/exit\nnever sent\n",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("One.\nTwo.\n");
    const names = (await readdir(join(root, "examples/skills"))).sort();
    expect(result.stderr).toContain(`${names.length} skills (${names.join(", ")})`);
    expect(result.stderr).toMatch(/sql-review {2}Review SQL queries/);
    expect(server.requests.map((request) => textOf(request.messages.at(-1)!.content))).toEqual(["first", "second"]);
  });

  it("exits 2 with the setup message when neither OPENAI_BASE_URL nor OPENAI_API_KEY is set", async () => {
    const result = await runChat(["-p", "hi"], {});
    expect(result).toEqual({ code: 2, stdout: "", stderr: NO_ENDPOINT_MESSAGE });
  });

  it("exits 1 naming the network error when the endpoint is unreachable", async () => {
    const refusing = await holdRefusingPort();
    const result = await runChat(["-p", "hi", "--skills", "examples/skills"], {
      OPENAI_BASE_URL: `http://127.0.0.1:${refusing.port}/v1`,
    }).finally(() => refusing.close());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: cannot reach the model at http:\/\/127\.0\.0\.1:\d+\/v1: connection refused .*\(ECONNREFUSED\)$/m,
    );
  });

  it("exits 1 and prints the endpoint's error when the model call fails", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ errorStatus: 401, errorMessage: "Incorrect API key provided" }],
    });
    const result = await runChat(["-p", "hi", "--skills", "examples/skills"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "wrong",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: 401 Incorrect API key provided (from ${server.url})\n`);
  });
});
