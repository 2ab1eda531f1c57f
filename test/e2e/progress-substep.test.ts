// scripts/progress.mjs --substep: a part of a step that runs as a process of its own below the step's command (the
// native build inside `pnpm install`) is announced, timed and ended as a step of its own, seen through /proc. Real
// child processes; the "native build" here is a shell whose command line carries the pattern, and it waits on a FIFO
// until the test has seen what it must see while the part runs (no sleep has to outlast progress.mjs's scans).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

const progress = join(REPO_ROOT, "scripts", "progress.mjs");
const ABSENT = "native part: nothing to build";
const BOUND_MS = 30_000;
const work = mkdtempSync(join(tmpdir(), "sg-progress-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The part: a shell that waits on `gate` (a FIFO), then exits with `code`; only its own command line has the pattern. */
const PART = 'read _ < "$GATE"; : fake-native-build; exit "$CODE"';
let gates = 0;

/**
 * Starts progress.mjs on a step (`bash -c script`, with the part's command in $PART) whose sub-step is the part; its
 * progress lines (stderr) as they come, a wait for a line, the release of the part, and the exit status.
 */
function startStep(script: string, code = 0) {
  const gate = join(work, `gate-${++gates}`);
  expect(spawnSync("mkfifo", [gate]).status).toBe(0);
  const child = spawn(
    process.execPath,
    [
      progress,
      "--substep",
      "native part (the fake build)",
      "fake-native-build",
      ABSENT,
      "whole step (outer)",
      "bash",
      "-c",
      script,
    ],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, SKILLGRAPH_PROGRESS_HEARTBEAT_MS: "500", GATE: gate, PART, CODE: String(code) },
    },
  );
  const lines: string[] = [];
  let partial = "";
  const waiting = new Set<() => void>();
  child.stderr.on("data", (chunk: Buffer) => {
    const complete = (partial + chunk.toString()).split("\n");
    partial = complete.pop()!;
    lines.push(...complete.filter((line) => line.startsWith("skillgraph: ")));
    for (const check of waiting) check();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    lines,
    /** Resolves once a line matches `pattern`; fails saying which line never came after BOUND_MS. */
    until(pattern: RegExp, what: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${what}: not seen within ${BOUND_MS} ms; lines:\n${lines.join("\n")}`));
        }, BOUND_MS);
        const check = () => {
          if (!lines.some((line) => pattern.test(line))) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    },
    /** Lets the part end (it reads one line from its FIFO). */
    release: () => writeFile(gate, "go\n"),
    /** The exit status, once progress.mjs has ended (bounded). */
    exited: () =>
      Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`progress.mjs did not end within ${BOUND_MS} ms`)), BOUND_MS),
        ),
      ]),
  };
}

const ANNOUNCED = /^skillgraph: native part \(the fake build\)\.\.\.$/;
const PART_HEARTBEAT = /^skillgraph: {3}\.\.\. still native part \(/;

describe.skipIf(!existsSync("/proc/self/stat"))("progress.mjs --substep", () => {
  it("reports the part as its own step, in order, with its own time and heartbeats, and the step's share of it", async () => {
    const step = startStep('sh -c "$PART"; sleep 0.3');
    await step.until(ANNOUNCED, "the part's announcement");
    // while the part runs (it is quiet for longer than the 0.5 s heartbeat), the heartbeat names it
    await step.until(PART_HEARTBEAT, "a heartbeat naming the part");
    await step.release();
    expect(await step.exited()).toBe(0);
    const { lines } = step;
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const order = [
      at(/^skillgraph: whole step \(outer\)\.\.\.$/),
      at(ANNOUNCED),
      at(/^skillgraph: native part: done in \d+\.\d s$/),
      at(/^skillgraph: whole step: done in \d+\.\d s \(\d+\.\d s of it native part\)$/),
    ];
    expect(
      order.every((index) => index >= 0),
      lines.join("\n"),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const partSeconds = Number(/native part: done in (\d+\.\d) s/.exec(lines[order[2]!]!)![1]);
    expect(partSeconds).toBeGreaterThan(0);
    const during = lines.slice(order[1]! + 1, order[2]);
    expect(during.some((line) => PART_HEARTBEAT.test(line))).toBe(true);
    expect(during.some((line) => line.includes("... still whole step ("))).toBe(false);
    expect(lines).not.toContain(`skillgraph: ${ABSENT}`);
  }, 90_000);

  it("says why there was no such part when none ran, and the step's last line has no share", async () => {
    const step = startStep("sleep 0.3");
    expect(await step.exited()).toBe(0);
    expect(step.lines).toContain(`skillgraph: ${ABSENT}`);
    expect(step.lines.at(-1)).toMatch(/^skillgraph: whole step: done in \d+\.\d s$/);
    expect(step.lines.some((line) => line.includes("native part (the fake build)..."))).toBe(false);
  }, 90_000);

  it("a failing step still ends its part and says it failed", async () => {
    const step = startStep('sh -c "$PART"; exit $?', 3);
    await step.until(ANNOUNCED, "the part's announcement");
    await step.release();
    expect(await step.exited()).toBe(3);
    const { lines } = step;
    expect(lines.some((line) => /^skillgraph: native part: (done in|stopped after) \d+\.\d s$/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^skillgraph: whole step: failed \(exit 3\) after \d+\.\d s \(\d+\.\d s of it native part\)$/,
    );
    expect(lines).not.toContain(`skillgraph: ${ABSENT}`);
  }, 90_000);
});
