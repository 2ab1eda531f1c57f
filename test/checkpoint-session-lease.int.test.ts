// Issue 9.7: one writer per session. Real child processes on one SQLite file and on the real PostgreSQL: the second
// gets SessionBusyError naming the holder's pid, a crashed holder's lease is taken over at once (same host), and no
// turn of a process that exited 0 is ever lost.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { closeCheckpointer, createCheckpointer, inspectSession } from "../packages/checkpoint/src/index.js";

const child = "test/support/checkpoint-lease-child.ts";
const work = mkdtempSync(join(tmpdir(), "sg-lease-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface ChildRun {
  pid: number;
  done: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    result: Record<string, unknown> | undefined;
    stderr: string;
  }>;
  kill(): void;
}

function run(args: string[]): ChildRun {
  const proc = spawn(process.execPath, ["--conditions=@skillgraph/source", "--import", "tsx", child, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (chunk) => (stdout += String(chunk)));
  proc.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const done = new Promise<Awaited<ChildRun["done"]>>((resolve) =>
    proc.on("close", (code, signal) => {
      const line = stdout.trim().split("\n").at(-1);
      let result: Record<string, unknown> | undefined;
      try {
        result = line ? (JSON.parse(line) as Record<string, unknown>) : undefined;
      } catch {
        result = undefined;
      }
      resolve({ code, signal, result, stderr });
    }),
  );
  return { pid: proc.pid!, done, kill: () => proc.kill("SIGKILL") };
}

async function waitFor(file: string, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!existsSync(file)) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function humanTurns(url: string, threadId: string): Promise<string[]> {
  const saver = await createCheckpointer(url);
  try {
    const session = await inspectSession(saver, threadId);
    return session.messages.filter((message) => message.type === "human").map((message) => message.content);
  } finally {
    await closeCheckpointer(saver);
  }
}

const postgresUrl = inject("postgresUrl");
const backends = [
  {
    name: "one SQLite file",
    url: () => `sqlite:${join(work, "sessions.db")}`,
    unavailable: undefined as string | undefined,
  },
  {
    name: "PostgreSQL",
    url: () => `${postgresUrl}?schema=lease_${randomBytes(4).toString("hex")}`,
    unavailable: postgresUrl ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`,
  },
];

for (const backend of backends) {
  describe(`session lease across processes on ${backend.name}`, () => {
    if (backend.unavailable) {
      it.skip(backend.unavailable, () => undefined);
      return;
    }
    const url = backend.url();

    it("refuses a second writer with SessionBusyError naming the holder, then lets it in; no turn lost", async () => {
      const thread = `busy-${randomBytes(3).toString("hex")}`;
      const ready = join(work, `${thread}.ready`);
      const go = join(work, `${thread}.go`);
      const first = run([url, thread, "6", "A", ready, go]);
      await waitFor(ready);
      const second = await run([url, thread, "4", "B"]).done;
      expect(second.code, second.stderr).toBe(3);
      expect(second.result?.holderPid).toBe(first.pid);
      expect(String(second.result?.busy)).toMatch(
        new RegExp(`^session ${thread} is in use by pid ${first.pid} since \\d{4}-\\d\\d-\\d\\dT`),
      );
      writeFileSync(go, "go");
      const firstDone = await first.done;
      expect(firstDone.code, firstDone.stderr).toBe(0);
      const again = await run([url, thread, "4", "B"]).done;
      expect(again.code, again.stderr).toBe(0);
      const turns = await humanTurns(url, thread);
      expect(turns).toEqual([
        ...Array.from({ length: 6 }, (_, i) => `A turn ${i}`),
        ...Array.from({ length: 4 }, (_, i) => `B turn ${i}`),
      ]);
    });

    it("two processes started together on one session: every turn of each that exited 0 is kept, the other wrote nothing", async () => {
      const thread = `race-${randomBytes(3).toString("hex")}`;
      const [a, b] = await Promise.all([run([url, thread, "15", "A"]).done, run([url, thread, "15", "B"]).done]);
      for (const outcome of [a, b]) expect([0, 3], outcome.stderr).toContain(outcome.code);
      const turns = await humanTurns(url, thread);
      const expected = [a.code === 0 ? 15 : 0, b.code === 0 ? 15 : 0];
      expect(turns.filter((text) => text.startsWith("A ")).length).toBe(expected[0]);
      expect(turns.filter((text) => text.startsWith("B ")).length).toBe(expected[1]);
      expect(turns.length).toBe(expected[0]! + expected[1]!);
      expect(turns.length).toBeGreaterThanOrEqual(15);
    });

    it("takes over the lease of a holder killed with SIGKILL at once: it was on this host and its process is gone", async () => {
      const thread = `crash-${randomBytes(3).toString("hex")}`;
      const ready = join(work, `${thread}.ready`);
      const holder = run([url, thread, "1", "A", ready, join(work, `${thread}.never`), "30000"]);
      await waitFor(ready);
      holder.kill();
      await holder.done;
      // No wait for the 30 s lease: the holder's pid and start time show it is dead.
      const early = await run([url, thread, "1", "B", "", "", "2000"]).done;
      expect(early.code, early.stderr).toBe(0);
      const late = await run([url, thread, "2", "C", "", "", "2000"]).done;
      expect(late.code, late.stderr).toBe(0);
      const turns = await humanTurns(url, thread);
      expect(turns.filter((text) => text.startsWith("C "))).toEqual(["C turn 0", "C turn 1"]);
    });
  });
}

describe("two `skillgraph chat --session same` processes (the issue's scenario, real CLI over the test model server)", () => {
  it("the second exits 1 with 'session same is in use by pid P since T' while the first runs; no turn is lost", async () => {
    const { startOpenAICompatibleServer } = await import("./support/openai-compatible-server.js");
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let requests = 0;
    const server = await startOpenAICompatibleServer({
      script: [
        async () => {
          requests += 1;
          await gate; // the first chat holds the session while its model call is in flight
          return "first answer";
        },
        "second answer",
      ],
    });
    const db = `sqlite:${join(work, "chat-sessions.db")}`;
    const chat = (prompt: string) => {
      const proc = spawn(
        process.execPath,
        [
          "--conditions=@skillgraph/source",
          "--import",
          "tsx",
          "packages/cli/src/bin.ts",
          "chat",
          "-p",
          prompt,
          "--session",
          "same",
          "--checkpoint",
          db,
          "--quiet",
        ],
        {
          env: {
            PATH: process.env.PATH ?? "/usr/bin",
            HOME: work,
            NO_COLOR: "1",
            OPENAI_BASE_URL: server.url,
            OPENAI_API_KEY: "k",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      proc.stderr.on("data", (chunk) => (stderr += String(chunk)));
      return {
        pid: proc.pid!,
        done: new Promise<{ code: number | null; stderr: string }>((resolve) =>
          proc.on("close", (code) => resolve({ code, stderr })),
        ),
      };
    };
    try {
      const first = chat("first question");
      while (requests === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      const second = await chat("second question").done;
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`session same is in use by pid ${first.pid} since \\d{4}-`));
      open();
      expect((await first.done).code).toBe(0);
      const retry = await chat("second question").done;
      expect(retry.code, retry.stderr).toBe(0);
      expect(await humanTurns(db, "same")).toEqual(["first question", "second question"]);
    } finally {
      open();
      await server.close();
    }
  });
});
