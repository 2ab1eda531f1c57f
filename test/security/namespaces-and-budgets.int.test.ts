// Attacks on what one thread (or one user without a thread) can see or spend of another's: the workspace of runs
// without a thread id, attachments that would poison every later command, inputs read before the budget is checked,
// artifact namespaces matched by prefix over PostgreSQL, thread ids the store refuses, unbounded artifacts and lost
// versions under parallel saves.
import { randomBytes } from "node:crypto";
import { HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { END, InMemoryStore, MessagesAnnotation, START, StateGraph, type BaseStore } from "@langchain/langgraph";
import { afterAll, describe, expect, inject, it } from "vitest";
import { artifactStoreFromBaseStore, ArtifactQuotaError, type ArtifactStore } from "@skillgraph/shell";
import { attackHarness, bubblewrapWorks, EXECUTORS, type AttackHarness } from "./attack-harness.js";

const canSandbox = bubblewrapWorks();
const postgresUrl = inject("postgresUrl");

/** Calls a tool with a config of our choosing (no thread id, or inside a graph run). */
async function callTool(harness: AttackHarness, tool: string, input: Record<string, unknown>, config: RunnableConfig) {
  const target = harness.hook.tools.find((candidate) => candidate.name === tool)!;
  return JSON.parse(String(await target.invoke(input, config))) as Record<string, any>;
}

/** Runs tool calls inside a one-node graph whose state holds `messages` (so the tool sees the attachments). */
async function inGraph(
  harness: AttackHarness,
  messages: HumanMessage[],
  calls: Array<Record<string, unknown>>,
  threadId: string,
): Promise<Array<Record<string, any>>> {
  const results: Array<Record<string, any>> = [];
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("run", async (_state, config) => {
      for (const input of calls) results.push(await callTool(harness, "shell", input, config));
      return {};
    })
    .addEdge(START, "run")
    .addEdge("run", END)
    .compile();
  await graph.invoke({ messages }, { configurable: { thread_id: threadId } });
  return results;
}

function attachment(name: string, bytes: Buffer): HumanMessage {
  return new HumanMessage({
    content: [
      { type: "text", text: "see attached" },
      {
        type: "file",
        mimeType: "application/octet-stream",
        data: bytes.toString("base64"),
        metadata: { filename: name },
      },
    ],
  });
}

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `namespaces and budgets (${executor})`,
    () => {
      const made: AttackHarness[] = [];
      const harness = (options: Parameters<typeof attackHarness>[1] = {}) => {
        const made1 = attackHarness(executor, options);
        made.push(made1);
        return made1;
      };
      afterAll(async () => {
        for (const one of made) await one.hook.dispose();
      });

      it("a run without a thread id never reads the files another run without one left behind", async () => {
        const attack = harness();
        const noThread = {};
        // user A: stages a private file and writes a result from it
        const first = await callTool(
          attack,
          "shell",
          { command: "cp in/secret.txt out/secret-copy.txt", files: [{ path: "in/secret.txt", content: "A-PRIVATE" }] },
          noThread,
        );
        expect(first.status).toBe("ok");
        // user B, another run without a thread id, looks for them
        for (const file of ["in/secret.txt", "out/secret-copy.txt"]) {
          const second = await callTool(attack, "shell", { command: `cat ${file}` }, noThread);
          expect(JSON.stringify(second)).not.toContain("A-PRIVATE");
        }
      });

      it("a run without a thread id cannot load another's artifact", async () => {
        const store = new InMemoryStore();
        const attack = harness({ artifacts: { store } });
        await callTool(
          attack,
          "shell",
          {
            command: "cp in/secret.txt out/shared.txt",
            files: [{ path: "in/secret.txt", content: "A-ARTIFACT" }],
            outputs: { save_as_artifacts: true },
          },
          {},
        );
        const stolen = await callTool(
          attack,
          "shell",
          { command: "cat in/shared.txt", inputs: [{ from: "artifact://shared.txt" }] },
          {},
        );
        expect(JSON.stringify(stolen)).not.toContain("A-ARTIFACT");
      });

      it("an attachment named like a Python startup hook is skipped once and never blocks the thread's commands", async () => {
        const attack = harness();
        const messages = [
          attachment("usercustomize.py", Buffer.from("import os; os.system('echo pwned')")),
          attachment("evil.pth", Buffer.from("import os")),
          attachment("data.csv", Buffer.from("a,b\n1,2\n")),
        ];
        const [first, second] = await inGraph(
          attack,
          messages,
          [{ command: "cat in/attachments/data.csv" }, { command: "true" }],
          `attachments-${executor}`,
        );
        expect(first).toMatchObject({ status: "ok" });
        expect(first!.stdout).toContain("a,b");
        expect(first!.attachments_skipped.map((skipped: { name: string }) => skipped.name).sort()).toEqual([
          "evil.pth",
          "usercustomize.py",
        ]);
        expect(second).toMatchObject({ status: "ok" });
        expect(second!.attachments_skipped).toBeUndefined(); // reported once
        // a later run of the same thread (same messages in its history) still works
        const [later] = await inGraph(attack, messages, [{ command: "ls in/attachments" }], `attachments-${executor}`);
        expect(later).toMatchObject({ status: "ok" });
        expect(later!.stdout).not.toContain("usercustomize");
      });

      it("two 9 MiB attachments never make the thread's commands refused", async () => {
        const attack = harness();
        const big = (seed: number) => Buffer.alloc(9 * 1024 * 1024, seed);
        const messages = [attachment("one.bin", big(1)), attachment("two.bin", big(2))];
        const results = await inGraph(
          attack,
          messages,
          [{ command: "ls in/attachments" }, { command: "ls in/attachments" }, { command: "true" }],
          `big-attachments-${executor}`,
        );
        for (const result of results) expect(result).toMatchObject({ status: "ok" });
        expect(results[0]!.attachments_skipped).toEqual([
          expect.objectContaining({ name: "two.bin", reason: expect.stringContaining("staging budget") }),
        ]);
        // the one that did not fit comes in a later call, alone
        expect(results[1]!.stdout).toContain("two.bin");
      });

      it("declared inputs are sized from metadata and refused over the budget before a byte is loaded", async () => {
        const inner = artifactStoreFromBaseStore(new InMemoryStore());
        let loads = 0;
        const counting: ArtifactStore = {
          save: (thread, input) => inner.save(thread, input),
          list: (thread) => inner.list(thread),
          describe: (thread, name, version) => inner.describe!(thread, name, version),
          load: (thread, name, version) => {
            loads += 1;
            return inner.load(thread, name, version);
          },
        };
        const attack = harness({ artifacts: { store: counting } });
        for (const name of ["a.bin", "b.bin", "c.bin"])
          await inner.save(attack.threadId, {
            name,
            bytes: Buffer.alloc(7 * 1024 * 1024, 7),
            mimeType: "application/octet-stream",
            savedFrom: `out/${name}`,
          });
        const result = await attack.call("shell", {
          command: "true",
          inputs: ["a.bin", "b.bin", "c.bin"].map((name) => ({ from: `artifact://${name}` })),
        });
        expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
        expect(result.message).toContain("budget");
        expect(loads).toBe(0);
      });
    },
  );
}

describe("artifact namespaces, quotas and versions", () => {
  const stores: PostgresStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.stop();
  });
  const postgres = async (): Promise<BaseStore> => {
    const store = PostgresStore.fromConnString(postgresUrl, { schema: `artifacts_${randomBytes(4).toString("hex")}` });
    await store.setup();
    stores.push(store);
    return store;
  };
  const save = (artifacts: ArtifactStore, thread: string, name: string, text: string) =>
    artifacts.save(thread, { name, bytes: Buffer.from(text), mimeType: "text/plain", savedFrom: `out/${name}` });

  it.skipIf(postgresUrl === "")(
    "listing thread t1 over PostgresStore returns none of t10's, t1-x's or t_1's",
    async () => {
      const artifacts = artifactStoreFromBaseStore(await postgres());
      await save(artifacts, "t1", "mine.txt", "t1");
      await save(artifacts, "t10", "ten.txt", "t10");
      await save(artifacts, "t1-x", "dash.txt", "t1-x");
      await save(artifacts, "t11", "eleven.txt", "t11");
      expect((await artifacts.list("t1")).map((artifact) => artifact.name)).toEqual(["mine.txt"]);
      expect(await artifacts.load("t1", "ten.txt")).toBeUndefined();
      // '_' is a LIKE wildcard: t_1 must not see t11's
      await save(artifacts, "t_1", "under.txt", "t_1");
      expect((await artifacts.list("t_1")).map((artifact) => artifact.name)).toEqual(["under.txt"]);
    },
  );

  it.skipIf(postgresUrl === "")("thread ids with '_', '.' and ':' can save and load", async () => {
    const artifacts = artifactStoreFromBaseStore(await postgres());
    for (const thread of ["user_1", "org.team.user", "tenant:42"]) {
      await save(artifacts, thread, "r.txt", thread);
      expect((await artifacts.load(thread, "r.txt"))?.bytes.toString()).toBe(thread);
    }
  });

  it("a thread cannot save past its quota (bytes and versions)", async () => {
    const artifacts = artifactStoreFromBaseStore(new InMemoryStore(), {
      maxBytesPerThread: 1000,
      maxVersionsPerThread: 3,
    });
    await save(artifacts, "q", "a.txt", "x".repeat(600));
    const error = await save(artifacts, "q", "b.txt", "y".repeat(600)).catch((caught: unknown) => caught);
    expect(ArtifactQuotaError.isInstance(error)).toBe(true);
    await save(artifacts, "q", "c.txt", "z");
    await save(artifacts, "q", "c.txt", "z");
    await expect(save(artifacts, "q", "c.txt", "z")).rejects.toThrow(/quota/);
    // another thread has its own quota
    await save(artifacts, "other", "a.txt", "x".repeat(600));
  });

  it("a thread's quota holds through the tool: files over it are skipped with the reason", async () => {
    const attack = attackHarness("local", {
      artifacts: { store: new InMemoryStore(), quota: { maxBytesPerThread: 2048 } },
    });
    try {
      const result = await attack.call("shell", {
        command: "cp in/big.txt out/big.txt",
        files: [{ path: "in/big.txt", content: "b".repeat(4096) }],
        outputs: { save_as_artifacts: true },
      });
      expect(result.status).toBe("ok");
      expect(result.artifacts).toEqual([
        expect.objectContaining({ name: "big.txt", skipped: expect.stringContaining("quota") }),
      ]);
    } finally {
      await attack.hook.dispose();
    }
  });

  for (const kind of ["memory", "postgres"] as const) {
    it.skipIf(kind === "postgres" && postgresUrl === "")(
      `parallel saves of one name get distinct versions and none is lost (${kind})`,
      async () => {
        const store = kind === "memory" ? new InMemoryStore() : await postgres();
        // two artifact stores over one BaseStore, as two tool calls of one process make
        const writers = [artifactStoreFromBaseStore(store), artifactStoreFromBaseStore(store)];
        const saved = await Promise.all(
          Array.from({ length: 12 }, (_, index) => save(writers[index % 2]!, "p", "r.txt", `content-${index}`)),
        );
        const versions = saved.map((artifact) => artifact.version).sort((a, b) => a - b);
        expect(versions).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
        const contents = new Set<string>();
        for (const version of versions) contents.add((await writers[0]!.load("p", "r.txt", version))!.bytes.toString());
        expect(contents.size).toBe(12);
      },
    );
  }
});
