// examples/agent-server under the real LangGraph Agent Server (`langgraphjs dev`, @langchain/langgraph-api 2.0.0), run
// offline (no LangSmith tracing, no analytics, no browser), driven by the SDK's Client: threads and runs, streamed skill
// events, per-run narrowing, an approval interrupt resumed with a Command, thread isolation, and a restart.
// The model is ChatOpenAI over HTTP to the scripted OpenAI-compatible test server.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedChatRequest,
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../support/openai-compatible-server.js";
import { startOnFreePort } from "../support/free-port.js";
import { REPO_ROOT } from "../support/shared-paths.js";

const example = join(REPO_ROOT, "examples/agent-server");
const cli = join(example, "node_modules/.bin/langgraphjs");
const work = mkdtempSync(join(tmpdir(), "sg-agent-server-"));
const serverDir = join(work, "deployment");
const workspaces = join(work, "workspaces");

/** The scripted model: replies depend on the newest user message and on what came back since. */
function brain(request: RecordedChatRequest) {
  const messages = request.messages;
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  const ask = textOf(lastUser?.content ?? "");
  const last = messages.at(-1)!;
  const answered = last.role === "tool";
  const read = (name: string) => ({ toolCalls: [{ name: "read_skill", arguments: { name } }] });
  if (ask.startsWith("release notes")) return answered ? "Release notes drafted." : read("release-notes");
  if (ask.startsWith("commit message")) return answered ? "Commit message drafted." : read("commit-message");
  if (ask.startsWith("touch a file"))
    return answered
      ? `shell said: ${textOf(last.content).slice(0, 200)}`
      : { toolCalls: [{ name: "shell", arguments: { command: "touch out/approved.txt" } }] };
  return `echo: ${ask}`;
}

let model: OpenAICompatibleServer;
let server: { process: ChildProcess; url: string; log: () => string } | undefined;

const portTaken = (error: unknown) => /EADDRINUSE/.test(String(error));

/** Starts `langgraphjs dev` on the deployment folder, offline, on a free port, and waits for `/ok`. */
function startAgentServer(): Promise<NonNullable<typeof server>> {
  return startOnFreePort(startAgentServerOn, portTaken);
}

async function startAgentServerOn(port: number): Promise<NonNullable<typeof server>> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(LANGSMITH|LANGCHAIN)_/.test(key)) env[key] = value;
  Object.assign(env, {
    LANGSMITH_TRACING: "false", // no tracing to LangSmith (the server would also look up an organization id)
    LANGGRAPH_CLI_NO_ANALYTICS: "1", // the CLI otherwise posts usage analytics on every command
    BROWSER: "none", // with --no-browser: never open Studio
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --conditions=@skillgraph/source`.trim(),
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test-key",
    SKILLGRAPH_MODEL: "agent-server-model",
    SKILLGRAPH_WORKSPACES: workspaces,
  });
  const child = spawn(
    cli,
    [
      "dev",
      "--no-browser",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--config",
      join(serverDir, "langgraph.json"),
    ],
    {
      cwd: serverDir,
      env,
      detached: true, // its own process group: tsx watch and the server under it stop together
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout!.on("data", (chunk) => (log += String(chunk)));
  child.stderr!.on("data", (chunk) => (log += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`agent server exited ${child.exitCode}:\n${log}`);
    if (portTaken(log)) {
      // the port was bound by another process after it was probed (tsx watch keeps running after its server failed)
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`agent server: port ${port} taken:\n${log}`);
    }
    if (
      await fetch(`${url}/ok`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`agent server did not start in 90 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { process: child, url, log: () => log };
}

/**
 * Waits until both .langgraph_api files were written after `since` (the time before the last request: each store
 * writes 3 s after its last access, reads included), parse, and have not changed for 1.5 s. A fixed wait instead could
 * end before a late debounced write on a loaded machine, and older files would pass for settled.
 */
async function waitForSettledState(since: number): Promise<void> {
  const files = [".langgraphjs_ops.json", ".langgraphjs_api.checkpointer.json"].map((name) =>
    join(serverDir, ".langgraph_api", name),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const settled = files.every((file) => {
      try {
        const { mtimeMs } = statSync(file);
        if (mtimeMs <= since) return false;
        JSON.parse(readFileSync(file, "utf8"));
        return Date.now() - mtimeMs > 1_500;
      } catch {
        return false;
      }
    });
    if (settled) return;
    if (Date.now() > deadline)
      throw new Error("the dev server's state files were not written after the last request and settled in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stops the server's whole process group (SIGKILL: see waitForSettledState for why not SIGINT). */
async function stopAgentServer(): Promise<void> {
  if (!server) return;
  const child = server.process;
  server = undefined;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.on("close", resolve));
  process.kill(-child.pid!, "SIGKILL");
  await closed;
}

beforeAll(async () => {
  model = await startOpenAICompatibleServer({ script: [brain], loop: true });
  // A deployment folder of its own (the dev server keeps its state in <folder>/.langgraph_api); graph paths are
  // resolved against it, so they point back at the example's sources.
  const src = relative(serverDir, join(example, "src"));
  rmSync(serverDir, { recursive: true, force: true });
  mkdirSync(serverDir, { recursive: true });
  const config = JSON.parse(readFileSync(join(example, "langgraph.json"), "utf8")) as {
    graphs: Record<string, string>;
  };
  for (const [id, spec] of Object.entries(config.graphs)) config.graphs[id] = spec.replace("./src", src);
  writeFileSync(join(serverDir, "langgraph.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(serverDir, ".gitignore"), ".langgraph_api\n");
  server = await startAgentServer();
}, 120_000);

afterAll(async () => {
  await stopAgentServer();
  await model?.close();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

interface StreamedRun {
  events: Array<{ event: string; data: unknown }>;
  /** `{ skillgraph: event }` chunks of the custom stream, unwrapped. */
  skillEvents: Array<{ type: string; skill?: string; agentId?: string; tools?: string[] }>;
  /** Content of the last complete AI message of the messages stream. */
  answer: string;
  /** How many partial chunks the messages stream carried for AI messages (tokens as they came). */
  partials: number;
  /** Node names of the updates stream, in order. */
  nodes: string[];
}

type AnyMessage = { type?: string; content?: unknown; tool_calls?: unknown[] };

async function streamRun(
  client: Client,
  threadId: string,
  assistantId: string,
  payload: Record<string, unknown>,
): Promise<StreamedRun> {
  const run: StreamedRun = { events: [], skillEvents: [], answer: "", partials: 0, nodes: [] };
  const stream = client.runs.stream(threadId, assistantId, {
    streamMode: ["messages", "custom", "updates"],
    ...payload,
  } as never);
  for await (const chunk of stream as AsyncIterable<{ event: string; data: unknown }>) {
    run.events.push(chunk);
    if (chunk.event === "custom") {
      const event = (chunk.data as { skillgraph?: StreamedRun["skillEvents"][number] } | undefined)?.skillgraph;
      if (event) run.skillEvents.push(event);
    } else if (chunk.event === "updates") {
      run.nodes.push(...Object.keys(chunk.data as Record<string, unknown>));
    } else if (chunk.event === "messages/partial") {
      if ((chunk.data as AnyMessage[])[0]?.type === "ai") run.partials += 1;
    } else if (chunk.event === "messages/complete") {
      const message = (chunk.data as AnyMessage[])[0];
      if (message?.type === "ai" && typeof message.content === "string") run.answer = message.content;
    } else if (chunk.event === "error") {
      throw new Error(`run failed: ${JSON.stringify(chunk.data)}`);
    }
  }
  return run;
}

const say = (content: string) => ({ input: { messages: [{ role: "user", content }] } });
const loadedSkills = (values: unknown, agentId: string) =>
  Object.keys(
    (values as { skillgraph?: Record<string, { load: { loaded: Record<string, unknown> } }> }).skillgraph?.[agentId]
      ?.load.loaded ?? {},
  ).sort();
const requestsAbout = (text: string) =>
  model.requests.filter((request) =>
    request.messages.some((message) => message.role === "user" && textOf(message.content ?? "") === text),
  );
const bodyLine = (skill: string) =>
  readFileSync(join(REPO_ROOT, "examples/skills", skill, "SKILL.md"), "utf8")
    .split("---")
    .slice(2)
    .join("---")
    .trim()
    .split("\n")[0]!;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("skillgraph under the LangGraph Agent Server (langgraphjs dev, offline)", () => {
  const client = () => new Client({ apiUrl: server!.url });
  const isolated: Record<string, string> = {};
  let storageThread = "";

  it.each(["skills_agent", "interceptor_graph"])(
    "%s: a thread and a streamed run show tokens, skill events and node updates",
    async (graph) => {
      const thread = await client().threads.create();
      const run = await streamRun(client(), thread.thread_id, graph, say(`release notes for ${graph}`));
      expect(run.skillEvents).toContainEqual(
        expect.objectContaining({ type: "skill-loaded", skill: "release-notes", mode: "session" }),
      );
      expect(run.answer).toBe("Release notes drafted.");
      expect(run.partials).toBeGreaterThan(3); // token chunks, not one final message
      expect(run.nodes).toContain("tools");
      expect(run.nodes).toEqual(
        expect.arrayContaining(graph === "skills_agent" ? ["model_request"] : ["agent", "end_turn"]),
      );
      const state = await client().threads.getState(thread.thread_id);
      expect(loadedSkills(state.values, "default")).toEqual(["release-notes"]);
      // The model really got the skill's instructions after read_skill.
      const [, second] = requestsAbout(`release notes for ${graph}`);
      expect(second!.messages.map((message) => textOf(message.content ?? "")).join("\n")).toContain(
        bodyLine("release-notes"),
      );
    },
  );

  it("narrows the skills per run: createAgent through context.skills, the hand-built graph through configurable.skills", async () => {
    const narrowed = { only: ["commit-message"] };
    const agentThread = await client().threads.create();
    await streamRun(client(), agentThread.thread_id, "skills_agent", {
      ...say("narrowed agent run"),
      context: { skills: narrowed },
    });
    const graphThread = await client().threads.create();
    await streamRun(client(), graphThread.thread_id, "interceptor_graph", {
      ...say("narrowed graph run"),
      config: { configurable: { skills: narrowed } },
    });
    const plain = await client().threads.create();
    await streamRun(client(), plain.thread_id, "interceptor_graph", say("unnarrowed run"));
    for (const text of ["narrowed agent run", "narrowed graph run"]) {
      const [request] = requestsAbout(text);
      expect(request!.systemPrompt, text).toContain("commit-message");
      expect(request!.systemPrompt, text).not.toContain("release-notes");
      expect(request!.systemPrompt, text).not.toContain("sql-review");
    }
    expect(requestsAbout("unnarrowed run")[0]!.systemPrompt).toContain("release-notes");
  });

  it("pauses for approval with interrupt() and runs the command once resumed with Command({ resume }) (createAgent graph)", async () => {
    const thread = await client().threads.create();
    const first = await streamRun(client(), thread.thread_id, "skills_agent", say("touch a file please"));
    expect(first.nodes).toContain("__interrupt__");
    const paused = await client().threads.getState(thread.thread_id);
    const interrupts = paused.tasks.flatMap((task) => task.interrupts ?? []);
    expect(interrupts.map((entry) => entry.value)).toEqual([
      expect.objectContaining({ type: "skillgraph/shell-approval", tool: "shell", command: "touch out/approved.txt" }),
    ]);
    expect(paused.next.length).toBeGreaterThan(0);

    const resumed = await streamRun(client(), thread.thread_id, "skills_agent", {
      command: { resume: { approved: true } },
    });
    expect(resumed.answer).toMatch(/^shell said: /);
    expect(resumed.answer).toContain('"status":"ok"');
    const done = await client().threads.getState(thread.thread_id);
    expect(done.next).toEqual([]);
  });

  it("two threads never see each other's loaded skills (runs in parallel, hand-built graph)", async () => {
    const [a, b] = await Promise.all([client().threads.create(), client().threads.create()]);
    const [runA, runB] = await Promise.all([
      streamRun(client(), a.thread_id, "interceptor_graph", say("release notes for thread A")),
      streamRun(client(), b.thread_id, "interceptor_graph", say("commit message for thread B")),
    ]);
    expect(runA.skillEvents.map((event) => event.skill)).not.toContain("commit-message");
    expect(runB.skillEvents.map((event) => event.skill)).not.toContain("release-notes");
    expect(loadedSkills((await client().threads.getState(a.thread_id)).values, "default")).toEqual(["release-notes"]);
    expect(loadedSkills((await client().threads.getState(b.thread_id)).values, "default")).toEqual(["commit-message"]);
    const seenByB = requestsAbout("commit message for thread B")
      .map((request) => request.messages.map((message) => textOf(message.content ?? "")).join("\n"))
      .join("\n");
    expect(seenByB).toContain(bodyLine("commit-message"));
    expect(seenByB).not.toContain(bodyLine("release-notes"));
    isolated.a = a.thread_id;
    isolated.b = b.thread_id;
  });

  it("measures the extra latency of a run under the server against the same graph in process (printed, not asserted)", async () => {
    process.env.OPENAI_BASE_URL = model.url;
    process.env.OPENAI_API_KEY = "test-key";
    process.env.SKILLGRAPH_WORKSPACES = workspaces;
    const { graph } = (await import("../../examples/agent-server/src/interceptor-graph.js")) as {
      graph: { checkpointer: unknown; invoke(input: unknown, config: unknown): Promise<unknown> };
    };
    const { MemorySaver } = await import("@langchain/langgraph");
    graph.checkpointer = new MemorySaver();
    const runs = 8;
    const inProcess: number[] = [];
    const underServer: number[] = [];
    const streamed: number[] = [];
    const thread = await client().threads.create();
    storageThread = thread.thread_id;
    for (let index = -2; index < runs; index += 1) {
      let start = performance.now();
      await graph.invoke(say(`ping in process ${index}`).input, { configurable: { thread_id: "latency" } });
      if (index >= 0) inProcess.push(performance.now() - start);
      start = performance.now();
      await client().runs.wait(thread.thread_id, "interceptor_graph", say(`ping server ${index}`));
      if (index >= 0) underServer.push(performance.now() - start);
      start = performance.now();
      await streamRun(client(), thread.thread_id, "interceptor_graph", say(`ping stream ${index}`));
      if (index >= 0) streamed.push(performance.now() - start);
    }
    // The server logs how long each run waited in its queue (workers poll it after a random 0-1 s sleep) and ran.
    const plainLog = server!.log().replace(/\u001b\[[0-9;]*m/g, ""); // winston colours the numbers
    const logged = (name: string) =>
      [...plainLog.matchAll(new RegExp(`${name}: (\\d+)`, "g"))].map((match) => Number(match[1])).slice(-2 * runs);
    const figures = {
      runs,
      inProcessMedianMs: Math.round(median(inProcess) * 10) / 10,
      serverMedianMs: Math.round(median(underServer) * 10) / 10,
      extraMs: Math.round((median(underServer) - median(inProcess)) * 10) / 10,
      serverStreamMedianMs: Math.round(median(streamed) * 10) / 10,
      serverQueueMedianMs: median(logged("run_queue_ms")),
      serverExecMedianMs: median(logged("run_exec_ms")),
    };
    console.log(
      `agent-server latency per run (one model call, hand-built graph; runs.wait and runs.stream): ${JSON.stringify(figures)}`,
    );
    expect(underServer).toHaveLength(runs);
  });

  it("resumes a thread after the server restarts: messages and loaded skills come back from .langgraph_api", async () => {
    const lastRequest = Date.now();
    const before = await client().threads.getState(isolated.a!);
    // The dev server writes its in-memory state to .langgraph_api 3 s after the last access (debounced, reads too) with
    // a plain, non-atomic writeFile, and again from its exit hook. Ctrl-C / SIGINT to its process group lets `tsx watch`
    // force-kill it during that exit flush ("Previous process hasn't exited yet. Force killing..."), which can leave the
    // JSON file cut short, and the next start then silently begins empty. So: wait until both files are written and
    // settled, then stop it without an exit flush (SIGKILL).
    await waitForSettledState(lastRequest);
    await stopAgentServer();
    const files = [".langgraphjs_ops.json", ".langgraphjs_api.checkpointer.json"].map((name) =>
      join(serverDir, ".langgraph_api", name),
    );
    const checkpointFile = readFileSync(files[1]!, "utf8");
    const stored = (
      JSON.parse(checkpointFile) as { json: { storage: Record<string, unknown>; writes: Record<string, unknown> } }
    ).json;
    const threadBytes = JSON.stringify(stored.storage[storageThread]).length;
    const writeBytes = Object.entries(stored.writes)
      .filter(([key]) => key.includes(storageThread))
      .reduce((sum, [, value]) => sum + JSON.stringify(value).length, 0);
    const turns = 2 * (10 + 2); // the latency test's runs on that thread (wait and stream)
    console.log(
      `agent-server storage: checkpointer file ${checkpointFile.length} bytes for all threads; thread of ${turns} one-call turns: ${threadBytes + writeBytes} bytes (${Math.round((threadBytes + writeBytes) / turns)} per turn), ops file ${readFileSync(files[0]!, "utf8").length} bytes`,
    );

    server = await startAgentServer();
    const after = await client().threads.getState(isolated.a!);
    expect((after.values as { messages: unknown[] }).messages).toHaveLength(
      (before.values as { messages: unknown[] }).messages.length,
    );
    expect(loadedSkills(after.values, "default")).toEqual(["release-notes"]);
    const again = await streamRun(client(), isolated.a!, "interceptor_graph", say("hello again after restart"));
    expect(again.answer).toBe("echo: hello again after restart");
    const [request] = requestsAbout("hello again after restart");
    const context = request!.messages.map((message) => textOf(message.content ?? "")).join("\n");
    expect(context).toContain("release notes for thread A"); // the history came back
    expect(context).toContain(bodyLine("release-notes")); // and the session-loaded skill is still in the model's context
    expect(loadedSkills((await client().threads.getState(isolated.b!)).values, "default")).toEqual(["commit-message"]);
  });
});

describe("the same graphs behind the embeddable Agent Server API with a SQLite checkpointer (createEmbedServer)", () => {
  const db = join(work, "embed", "sessions.db");
  let embed: { child: ChildProcess; url: string } | undefined;

  const startEmbed = () => startOnFreePort(startEmbedOn, portTaken);

  async function startEmbedOn(port: number) {
    const child = spawn(
      process.execPath,
      ["--conditions=@skillgraph/source", "--import", "tsx", join(example, "src/embed-server.ts")],
      {
        cwd: example,
        env: {
          PATH: process.env.PATH,
          HOME: work,
          PORT: String(port),
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: "test-key",
          SKILLGRAPH_CHECKPOINT: `sqlite:${db}`,
          SKILLGRAPH_THREADS_FILE: join(work, "embed", "threads.json"),
          SKILLGRAPH_WORKSPACES: workspaces,
          LANGSMITH_TRACING: "false",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        child.kill("SIGKILL"); // a server that failed to bind is not left behind when another port is tried
        reject(new Error(`${why}:\n${output}`));
      };
      const timer = setTimeout(() => fail("embed server did not start"), 60_000);
      const onData = (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes("listening on")) {
          clearTimeout(timer);
          resolve();
        } else if (portTaken(output)) {
          clearTimeout(timer);
          fail(`embed server: port ${port} taken`);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("close", (code) => reject(new Error(`embed server exited ${code}:\n${output}`)));
    });
    embed = { child, url: `http://127.0.0.1:${port}` };
    return embed;
  }

  afterAll(() => {
    embed?.child.kill("SIGKILL");
  });

  it("keeps a thread's history and loaded skills in SQLite through a SIGKILL of the server", async () => {
    const first = await startEmbed();
    const client = new Client({ apiUrl: first.url });
    const thread = await client.threads.create();
    const run = await streamRun(client, thread.thread_id, "skills_agent", say("release notes for the embed server"));
    expect(run.skillEvents).toContainEqual(expect.objectContaining({ type: "skill-loaded", skill: "release-notes" }));
    expect(run.answer).toBe("Release notes drafted.");
    first.child.kill("SIGKILL"); // no flush, no exit hook: every checkpoint was already committed
    await new Promise((resolve) => first.child.once("close", resolve));

    const second = await startEmbed();
    const again = new Client({ apiUrl: second.url });
    const state = await again.threads.getState(thread.thread_id);
    expect(loadedSkills(state.values, "default")).toEqual(["release-notes"]);
    const next = await streamRun(again, thread.thread_id, "skills_agent", say("hello again from the embed server"));
    expect(next.answer).toBe("echo: hello again from the embed server");
    const context = requestsAbout("hello again from the embed server")[0]!
      .messages.map((message) => textOf(message.content ?? ""))
      .join("\n");
    expect(context).toContain("release notes for the embed server");
    expect(context).toContain(bodyLine("release-notes"));

    // The sessions tooling reads the same database.
    const { createCheckpointer, inspectSession, closeCheckpointer } =
      await import("../../packages/checkpoint/src/index.js");
    const saver = await createCheckpointer(`sqlite:${db}`);
    const session = await inspectSession(saver, thread.thread_id);
    expect(session.loadedSkills.map((skill) => [skill.agentId, skill.name])).toEqual([["default", "release-notes"]]);
    await closeCheckpointer(saver);
    second.child.kill("SIGTERM");
  });
});
