// Shared behaviour of skillgraph sessions on one checkpoint backend. Each backend's test calls describeCheckpointSaver once.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildSessionGraph,
  Command,
  type ScriptedReply,
  userTurn,
} from "../../packages/checkpoint/src/__fixtures__/session-graph.js";
import { buildSubgraphSession } from "../../packages/checkpoint/src/__fixtures__/subgraph-session.js";
import {
  closeCheckpointer,
  createCheckpointer,
  checkpointStats,
  inspectSession,
  pruneCheckpoints,
  withPruning,
} from "../../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory } from "../../packages/core/src/index.js";

type BaseCheckpointSaver = Awaited<ReturnType<typeof createCheckpointer>>;

/** One backend under test: a fresh, empty checkpoint store per `create`. */
export interface CheckpointSaverFactory {
  name: string;
  /** A new empty store: its URL (opened again to simulate a restart, and by child processes) and an open saver on it. */
  create: () => Promise<{ url: string; checkpointer: BaseCheckpointSaver }>;
  /** Releases what `create` made. */
  destroy: (created: { url: string; checkpointer: BaseCheckpointSaver }) => Promise<void>;
  /** Why this backend cannot run at all (e.g. no PostgreSQL server); every test is skipped with it. */
  unavailable?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const childScript = resolve(here, "../support/session-child.ts");
const repoRoot = resolve(here, "../..");

const lookupAll = (name: string) => ({ hash: `hash-${name}` });
const ids = (messages: Array<{ id?: string }>) => messages.map((m) => m.id);

function runChild(
  args: string[],
  readyFile?: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@skillgraph/source", "--import", "tsx", childScript, ...args],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += String(chunk)));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      resolvePromise({ code, signal, stderr });
    });
    const poll = setInterval(() => {
      if (readyFile && existsSync(readyFile)) {
        clearInterval(poll);
        child.kill("SIGKILL");
      }
    }, 10);
  });
}

function sideLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
}

const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;

/**
 * Message ids with the results of one parallel tool batch (positions `from`..`from+size-1`) sorted: the official savers
 * rebuild a delta channel from stored writes in their own row order, so parallel results need not keep their live order.
 */
function idsWithBatchSorted(messages: Array<{ id?: string }>, from: number, size: number): Array<string | undefined> {
  const list = ids(messages);
  return [...list.slice(0, from), ...list.slice(from, from + size).sort(), ...list.slice(from + size)];
}

/** Registers the session behaviour tests for one backend. */
export function describeCheckpointSaver(factory: CheckpointSaverFactory): void {
  describe(`sessions on ${factory.name}`, () => {
    if (factory.unavailable) {
      it.skip(`skipped: ${factory.unavailable}`, () => undefined);
      return;
    }
    let created: { url: string; checkpointer: BaseCheckpointSaver };
    let work: string;
    beforeAll(async () => {
      created = await factory.create();
      work = mkdtempSync(join(tmpdir(), "sg-sessions-"));
    });
    afterAll(async () => {
      await factory.destroy(created);
      rmSync(work, { recursive: true, force: true });
    });

    it("restores messages and loaded skills when the session continues on a newly opened saver", async () => {
      const script: ScriptedReply[] = [{ calls: [{ name: "load_skill", args: { name: "pdf" } }] }, { say: "ok" }];
      const first = buildSessionGraph({
        checkpointer: created.checkpointer,
        messages: "delta",
        script,
        lookup: lookupAll,
      });
      const config = { configurable: { thread_id: "restart" } };
      await first.invoke(userTurn("hi", "restart-u1"), config);
      const reopened = created.url === "memory:" ? created.checkpointer : await createCheckpointer(created.url);
      try {
        const second = buildSessionGraph({ checkpointer: reopened, messages: "delta", script, lookup: lookupAll });
        await second.invoke(userTurn("again", "restart-u2"), config);
        const state = await second.getState(config);
        expect(ids(state.values.messages)).toEqual([
          "restart-u1",
          "ai-restart-0",
          "tool-restart-call-0-0",
          "ai-restart-1",
          "restart-u2",
          "ai-restart-2",
        ]);
        expect(Object.keys(state.values.skills.loaded)).toEqual(["pdf"]);
        expect(state.values.skills.loaded.pdf.hash).toBe("hash-pdf");
      } finally {
        if (reopened !== created.checkpointer) await closeCheckpointer(reopened);
      }
    });

    it("resumes a session killed with SIGKILL mid tool batch: no message lost, skills intact, every call completed once", async (context) => {
      if (created.url === "memory:") return context.skip("an in-memory saver does not outlive its process");
      const side = join(work, "sigkill-side.txt");
      const ready = join(work, "sigkill-ready");
      const killed = await runChild(["run", created.url, "killed", side, ready], ready);
      expect(killed.signal).toBe("SIGKILL");
      const before = sideLines(side);
      expect(before).toContain("start killed call-0-2");
      expect(before).not.toContain("done killed call-0-2");

      const resumed = await runChild(["resume", created.url, "killed", side, ready]);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      const lines = sideLines(side);
      for (const call of ["call-0-0", "call-0-1", "call-0-2"]) expect(count(lines, `done killed ${call}`)).toBe(1);
      expect(count(lines, "start killed call-0-0")).toBe(1); // finished before the kill: its stored write was reused, not re-run
      expect(count(lines, "start killed call-0-2")).toBe(2); // interrupted: re-run once

      const session = await inspectSession(created.checkpointer, "killed");
      expect(idsWithBatchSorted(session.messages, 2, 3)).toEqual([
        "user-1",
        "ai-killed-0",
        "tool-killed-call-0-0",
        "tool-killed-call-0-1",
        "tool-killed-call-0-2",
        "ai-killed-1",
      ]);
      expect(session.messages.at(-1)?.content).toBe("finished");
      expect(session.loadedSkills.map((s) => [s.name, s.hash])).toEqual([["pdf", "hash-pdf-1"]]);
    });

    it("keeps 100 concurrent threads on one database apart, each with its own loaded skill", async () => {
      const runs = Array.from({ length: 100 }, async (_, index) => {
        const graph = buildSessionGraph({
          checkpointer: created.checkpointer,
          messages: index % 2 === 0 ? "delta" : "full",
          script: [
            {
              calls: [
                { name: "load_skill", args: { name: `skill-${index}` } },
                { name: "echo", args: { text: `t${index}` } },
              ],
            },
            { say: `bye ${index}` },
          ],
          lookup: lookupAll,
        });
        await graph.invoke(userTurn(`hello ${index}`, `c${index}-u`), { configurable: { thread_id: `c${index}` } });
      });
      await Promise.all(runs);
      for (let index = 0; index < 100; index += 1) {
        const session = await inspectSession(created.checkpointer, `c${index}`);
        expect(session.loadedSkills.map((s) => s.name)).toEqual([`skill-${index}`]);
        expect(session.messages).toHaveLength(5);
        expect(session.messages.every((m) => m.id?.startsWith(`c${index}-`) || m.id?.includes(`-c${index}-`))).toBe(
          true,
        );
        expect(session.messages.at(-1)?.content).toBe(`bye ${index}`);
      }
    });

    it("keeps a thread waiting on interrupt() resumable after pruning to the last checkpoint", async () => {
      const warmUp: ScriptedReply[] = Array.from({ length: 4 }, (_, turn) => ({ say: `warm ${turn}` }));
      const script: ScriptedReply[] = [
        ...warmUp,
        {
          calls: [
            { name: "load_skill", args: { name: "deploy" } },
            { name: "approve", args: { action: "deploy" } },
          ],
        },
        { say: "deployed" },
      ];
      const graph = buildSessionGraph({
        checkpointer: created.checkpointer,
        messages: "delta",
        script,
        lookup: lookupAll,
        snapshotFrequency: 7,
      });
      const config = { configurable: { thread_id: "approval" } };
      for (let turn = 0; turn < 4; turn += 1)
        await graph.invoke(userTurn(`warm up ${turn}`, `approval-w${turn}`), config);
      await graph.invoke(userTurn("deploy it", "approval-u2"), config);
      const waiting = await inspectSession(created.checkpointer, "approval");
      expect(waiting.pendingInterrupts).toHaveLength(1);

      const report = await pruneCheckpoints(created.checkpointer, { keepLast: 1 }, "approval");
      expect(report.removed).toBeGreaterThan(0);
      expect(report.kept["delta-ancestor"]).toBeGreaterThan(0); // the newest checkpoint rebuilds messages from older ones
      const pruned = await inspectSession(created.checkpointer, "approval");
      expect(pruned.pendingInterrupts).toEqual(waiting.pendingInterrupts);
      expect(pruned.messages.map((m) => m.id)).toEqual(waiting.messages.map((m) => m.id));

      await graph.invoke(new Command({ resume: "yes" }), config);
      const done = await inspectSession(created.checkpointer, "approval");
      expect(done.pendingInterrupts).toEqual([]);
      expect(done.messages.find((m) => m.id === "tool-approval-call-4-1")?.content).toBe('approval: "yes"');
      expect(done.messages.at(-1)?.content).toBe("deployed");
      expect(done.loadedSkills.map((s) => s.name)).toEqual(["deploy"]);
    });

    it("keeps a subgraph waiting on interrupt() resumable after pruning every namespace to its last checkpoint", async () => {
      const graph = buildSubgraphSession(created.checkpointer);
      const config = { configurable: { thread_id: "subgraph" } };
      for (let turn = 0; turn < 3; turn += 1) {
        await graph.invoke({ messages: [{ role: "user", content: `turn ${turn}`, id: `sub-u${turn}` }] }, config);
        if (turn < 2) await graph.invoke(new Command({ resume: `yes ${turn}` }), config);
      }
      const waiting = await graph.getState(config, { subgraphs: true });
      expect(waiting.tasks.some((task) => task.interrupts.length > 0)).toBe(true);
      const report = await pruneCheckpoints(created.checkpointer, { keepLast: 1 }, "subgraph");
      expect(report.removed).toBeGreaterThan(0);
      expect(report.kept.latest + report.kept.policy).toBeGreaterThan(1); // the root namespace and the subgraph's
      await graph.invoke(new Command({ resume: "yes 2" }), config);
      const done = (await graph.getState(config)).values.messages as Array<{ content: string }>;
      expect(done.map((m) => m.content).filter((c) => c.startsWith("answer"))).toEqual([
        "answer: yes 0",
        "answer: yes 1",
        "answer: yes 2",
      ]);
      expect(done).toHaveLength(3 * 4);
    });

    it("keeps a subgraph's newest checkpoint, which has no writes yet, so an aborted run resumes inside the subgraph", async () => {
      let checks = 0;
      let gate = Promise.resolve();
      const graph = buildSubgraphSession(created.checkpointer, { onCheck: () => (checks += 1), beforeAsk: () => gate });
      const config = { configurable: { thread_id: "sub-abort" } };
      await graph.invoke({ messages: [{ role: "user", content: "warm", id: "abort-u0" }] }, config);
      await graph.invoke(new Command({ resume: "warm ok" }), config);
      checks = 0;
      gate = new Promise<void>(() => undefined); // the next ask hangs until aborted
      const controller = new AbortController();
      const running = graph.invoke(
        { messages: [{ role: "user", content: "go", id: "abort-u1" }] },
        { ...config, signal: controller.signal },
      );
      for (;;) {
        const state = await graph.getState(config, { subgraphs: true });
        const sub = state.tasks.find((task) => task.name === "review")?.state as
          | { values?: { messages?: unknown[] } }
          | undefined;
        if (checks === 1 && (sub?.values?.messages?.length ?? 0) >= 7) break; // the subgraph checkpoint after "check" is stored
        await new Promise((resolveWait) => setTimeout(resolveWait, 10));
      }
      controller.abort();
      await running.catch(() => undefined);
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
      // Every checkpoint is now older than maxAgeMs: only what a resume needs may stay.
      const report = await pruneCheckpoints(created.checkpointer, { maxAgeMs: 1 }, "sub-abort");
      expect(report.removed).toBeGreaterThan(0);
      expect(report.kept.policy).toBe(0);

      gate = Promise.resolve();
      await graph.invoke(null, config);
      expect(checks).toBe(1); // resumed after "check", not from the subgraph's start
      await graph.invoke(new Command({ resume: "go ok" }), config);
      const contents = ((await graph.getState(config)).values.messages as Array<{ content: string }>).map(
        (m) => m.content,
      );
      expect(contents.filter((c) => c.startsWith("answer"))).toEqual(["answer: warm ok", "answer: go ok"]);
    });

    it("keeps a multi-tool batch that failed after some calls finished resumable after pruning", async () => {
      const side = join(work, "batch-side.txt");
      let failOnce = true;
      const graph = buildSessionGraph({
        checkpointer: created.checkpointer,
        messages: "delta",
        snapshotFrequency: 7,
        script: [
          { say: "warm 0" },
          { say: "warm 1" },
          { say: "warm 2" },
          {
            calls: [
              { name: "echo", args: { text: "a" } },
              { name: "load_skill", args: { name: "pdf" } },
              { name: "flaky", args: {} },
            ],
          },
          { say: "all done" },
        ],
        lookup: lookupAll,
        sideFile: side,
        tools: {
          flaky: async () => {
            if (failOnce) {
              failOnce = false;
              throw new Error("crashed mid batch");
            }
            return "flaky ok";
          },
        },
      });
      const config = { configurable: { thread_id: "batch" } };
      for (let turn = 0; turn < 3; turn += 1) await graph.invoke(userTurn(`warm ${turn}`, `batch-w${turn}`), config);
      await expect(graph.invoke(userTurn("go", "batch-u2"), config)).rejects.toThrow("crashed mid batch");
      const before = await checkpointStats(created.checkpointer, "batch");
      const report = await pruneCheckpoints(created.checkpointer, { keepLast: 1 }, "batch");
      expect(report.removed).toBeGreaterThan(0);
      expect(report.kept["delta-ancestor"]).toBeGreaterThan(0);
      const after = await checkpointStats(created.checkpointer, "batch");
      expect(after.checkpoints).toBe(before.checkpoints - report.removed);
      expect(after.bytes).toBeLessThan(before.bytes); // rows, their writes and (PostgreSQL) unreferenced blobs are gone

      await graph.invoke(null, config);
      const lines = sideLines(side);
      expect(count(lines, "start batch call-3-0")).toBe(1);
      expect(count(lines, "start batch call-3-1")).toBe(1);
      expect(count(lines, "start batch call-3-2")).toBe(2);
      expect(count(lines, "done batch call-3-2")).toBe(1);
      const session = await inspectSession(created.checkpointer, "batch");
      expect(idsWithBatchSorted(session.messages, 8, 3)).toEqual([
        ...[0, 1, 2].flatMap((turn) => [`batch-w${turn}`, `ai-batch-${turn}`]),
        "batch-u2",
        "ai-batch-3",
        "tool-batch-call-3-0",
        "tool-batch-call-3-1",
        "tool-batch-call-3-2",
        "ai-batch-4",
      ]);
      expect(session.loadedSkills.map((s) => s.name)).toEqual(["pdf"]);
    });

    it("bounds a long delta-channel session with pruning on write and still rebuilds its whole history", async () => {
      const pruning = withPruning(created.checkpointer, { keepLast: 3, onWrite: true });
      const graph = buildSessionGraph({
        checkpointer: pruning,
        messages: "delta",
        snapshotFrequency: 10,
        script: [{ calls: [{ name: "load_skill", args: { name: "pdf" } }] }],
        lookup: lookupAll,
      });
      const config = { configurable: { thread_id: "long" } };
      const sizes: number[] = [];
      for (let turn = 0; turn < 40; turn += 1) {
        await graph.invoke(userTurn(`turn ${turn} ${"x".repeat(200)}`, `long-u${turn}`), config);
        sizes.push((await pruning.stats("long")).checkpoints);
      }
      expect(Math.max(...sizes.slice(20))).toBeLessThanOrEqual(Math.max(...sizes.slice(0, 20)) + 1);
      const session = await inspectSession(created.checkpointer, "long");
      expect(session.messages.filter((m) => m.type === "human")).toHaveLength(40);
      expect(session.messages).toHaveLength(40 * 2 + 2);
      await graph.invoke(userTurn("one more", "long-last"), config);
      expect((await graph.getState(config)).values.messages.at(-2).id).toBe("long-last");
    });

    it("detects a loaded skill changed and one deleted on disk between the session's start and its resume", async () => {
      const skills = join(work, "skills");
      const write = (name: string, body: string) => {
        mkdirSync(join(skills, name), { recursive: true });
        writeFileSync(
          join(skills, name, "SKILL.md"),
          `---\nname: ${name}\ndescription: ${name} things for drift tests.\n---\n${body}\n`,
        );
      };
      write("alpha", "Alpha v1");
      write("beta", "Beta v1");
      write("gamma", "Gamma v1");
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skills)] });
      const graph = buildSessionGraph({
        checkpointer: created.checkpointer,
        messages: "delta",
        script: [{ calls: ["alpha", "beta", "gamma"].map((name) => ({ name: "load_skill", args: { name } })) }],
        lookup: (name) => registry.get(name),
      });
      await graph.invoke(userTurn("load", "drift-u1"), { configurable: { thread_id: "drift" } });
      expect((await inspectSession(created.checkpointer, "drift", registry)).drift).toEqual([]);

      write("alpha", "Alpha v2, different instructions");
      rmSync(join(skills, "beta"), { recursive: true });
      await registry.reload();
      const session = await inspectSession(created.checkpointer, "drift", registry);
      expect(session.drift.map((d) => [d.name, d.kind])).toEqual([
        ["alpha", "changed"],
        ["beta", "removed"],
      ]);
      expect(session.drift[0]?.currentHash).toBe(registry.get("alpha")?.hash);
    });
  });
}
