import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import {
  scriptFromFile,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from "./openai-compatible-server.js";

const servers: OpenAICompatibleServer[] = [];
const start = async (...args: Parameters<typeof startOpenAICompatibleServer>) => {
  const server = await startOpenAICompatibleServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Parses an SSE body into its `data:` payloads (JSON objects, or the string "[DONE]"). */
async function readEvents(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

type Chunk = {
  choices: Array<{
    delta: {
      content?: string;
      tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: unknown;
};

describe("startOpenAICompatibleServer", () => {
  it("answers a non-streaming request with the scripted text and records the system prompt, tools and messages", async () => {
    const server = await start({ script: ["Hello there."] });
    const response = await post(server.url, {
      model: "m1",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "hi" },
      ],
      tools: [{ type: "function", function: { name: "read_skill", parameters: { type: "object" } } }],
    });
    const json = (await response.json()) as {
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      model: string;
    };
    expect(response.status).toBe(200);
    expect(json.choices[0]!.message.content).toBe("Hello there.");
    expect(json.choices[0]!.finish_reason).toBe("stop");
    expect(json.model).toBe("m1");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.systemPrompt).toBe("You are terse.");
    expect(server.requests[0]!.toolNames).toEqual(["read_skill"]);
    expect(server.requests[0]!.messages.at(-1)).toEqual({ role: "user", content: "hi" });
    expect(server.requests[0]!.stream).toBe(false);
  });

  it("returns scripted tool calls with JSON-encoded arguments and finish_reason tool_calls", async () => {
    const server = await start({
      script: [{ toolCalls: [{ id: "call_a", name: "read_skill", arguments: { name: "sql-review" } }] }],
    });
    const json = (await (
      await post(server.url, { model: "m", messages: [{ role: "user", content: "x" }] })
    ).json()) as {
      choices: Array<{ message: { content: unknown; tool_calls: unknown }; finish_reason: string }>;
    };
    expect(json.choices[0]!.message.content).toBeNull();
    expect(json.choices[0]!.message.tool_calls).toEqual([
      { id: "call_a", type: "function", function: { name: "read_skill", arguments: '{"name":"sql-review"}' } },
    ]);
    expect(json.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("streams text word by word, then tool call deltas, the finish reason, a usage chunk and [DONE]", async () => {
    const server = await start({
      script: [
        { content: "Let me look that up.", toolCalls: [{ name: "read_skill", arguments: { name: "release-notes" } }] },
      ],
    });
    const response = await post(server.url, {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "x" }],
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readEvents(response);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1) as Chunk[];
    const contentPieces = chunks
      .flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""))
      .filter((piece) => piece !== "");
    expect(contentPieces.length).toBeGreaterThan(1);
    expect(contentPieces.join("")).toBe("Let me look that up.");
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: "call_1_1", function: { name: "read_skill", arguments: "" } });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.map((delta) => delta.function.arguments).join("")).toBe('{"name":"release-notes"}');
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual([
      "tool_calls",
    ]);
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ total_tokens: expect.any(Number) });
  });

  it("sends no usage chunk when stream_options.include_usage is absent", async () => {
    const server = await start({ script: ["ok"] });
    const chunks = (await readEvents(await post(server.url, { model: "m", stream: true, messages: [] }))).slice(
      0,
      -1,
    ) as Chunk[];
    expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage === undefined)).toBe(true);
  });

  it("passes the recorded request to a function reply", async () => {
    const server = await start({
      script: [(request) => `You said ${request.messages.length} messages to ${request.model}.`],
    });
    const json = (await (
      await post(server.url, {
        model: "m7",
        messages: [
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
      })
    ).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(json.choices[0]!.message.content).toBe("You said 2 messages to m7.");
  });

  it("answers 400 with a message naming the request once the script is exhausted, and records the error", async () => {
    const server = await start({ script: ["one"] });
    await post(server.url, { model: "m", messages: [] });
    const response = await post(server.url, { model: "m", messages: [{ role: "user", content: "again" }] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "script exhausted: request 2 but only 1 replies",
    );
    expect(server.errors).toHaveLength(1);
  });

  it("starts over with loop", async () => {
    const server = await start({ script: ["a", "b"], loop: true });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const json = (await (await post(server.url, { model: "m", messages: [] })).json()) as {
        choices: Array<{ message: { content: string } }>;
      };
      texts.push(json.choices[0]!.message.content);
    }
    expect(texts).toEqual(["a", "b", "a"]);
  });

  it("lists models and rejects a wrong API key when one is required", async () => {
    const server = await start({ script: ["x"], apiKey: "sk-test", models: ["alpha", "beta"] });
    expect((await fetch(`${server.url}/models`)).status).toBe(401);
    const models = (await (
      await fetch(`${server.url}/models`, { headers: { authorization: "Bearer sk-test" } })
    ).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(["alpha", "beta"]);
  });
});

describe("scriptFromFile and CLI mode", () => {
  it("reads a JSON script with loop and serves it from a child process that prints its URL", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oai-script-"));
    try {
      const file = join(dir, "script.json");
      await writeFile(file, JSON.stringify({ replies: ["from file"], loop: true }));
      expect(await scriptFromFile(file)).toEqual({ script: ["from file"], loop: true });

      const child = spawn(
        process.execPath,
        ["--import", "tsx", "test/support/openai-compatible-server.ts", "--script", file],
        { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
      );
      try {
        const url = await new Promise<string>((resolveUrl, rejectUrl) => {
          createInterface({ input: child.stdout! }).once("line", resolveUrl);
          child.once("exit", (code) => rejectUrl(new Error(`server exited with ${code}`)));
        });
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        for (let i = 0; i < 2; i++) {
          const json = (await (await post(url, { model: "m", messages: [] })).json()) as {
            choices: Array<{ message: { content: string } }>;
          };
          expect(json.choices[0]!.message.content).toBe("from file");
        }
      } finally {
        child.kill("SIGTERM");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("serves with --profile, --seed and --start-at, and refuses an unknown profile with exit code 2", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oai-script-"));
    const serve = (args: string[]) =>
      spawn(process.execPath, ["--import", "tsx", "test/support/openai-compatible-server.ts", ...args], {
        cwd: process.cwd(),
        stdio: ["ignore", "pipe", "pipe"],
      });
    try {
      const file = join(dir, "script.json");
      await writeFile(file, JSON.stringify(["first", "second"]));
      const child = serve(["--script", file, "--profile", "ollama", "--seed", "3", "--start-at", "1"]);
      try {
        const url = await new Promise<string>((resolveUrl, rejectUrl) => {
          createInterface({ input: child.stdout! }).once("line", resolveUrl);
          child.once("exit", (code) => rejectUrl(new Error(`server exited with ${code}`)));
        });
        const json = (await (await post(url, { model: "m", messages: [] })).json()) as {
          id: string;
          choices: Array<{ message: { content: string } }>;
        };
        expect(json.choices[0]!.message.content).toBe("second");
        expect(json.id).toMatch(/^chatcmpl-\d{1,3}$/);
      } finally {
        child.kill("SIGTERM");
      }
      const refused = serve(["--script", file, "--profile", "nonesuch"]);
      let stderr = "";
      refused.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
      const code = await new Promise<number | null>((resolveExit) => refused.once("exit", resolveExit));
      expect(code).toBe(2);
      expect(stderr).toContain('unknown --profile "nonesuch" (known: default, openai, ollama');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a script file without replies, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oai-script-"));
    try {
      const file = join(dir, "empty.json");
      await writeFile(file, JSON.stringify({ replies: [] }));
      await expect(scriptFromFile(file)).rejects.toThrow(`${file}: expected a non-empty array of replies`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
