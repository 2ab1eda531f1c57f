// How long arming a launcher holds this process's event loop, by where the fork happens (a design study for
// docs/design/command-start-cost.md; not part of `pnpm bench`): Node's `spawn` on the main thread (what the launchers
// do now), `spawn` in a worker thread, and `spawn` in a small forker process that hands the launcher's pipe ends back
// over its IPC channel and relays its exit status. The process first holds about `--heap-mb` of live objects, and its
// main thread keeps writing to them while it measures (as a server's does): the figure is the longest gap between two
// turns of its event loop per launcher armed and run (`true`), against the same rounds with nothing spawned.
// Run: node --import tsx bench/launcher-fork-stall.ts [--heap-mb=400] [--rounds=20]
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import { median } from "./support/stats.js";

const argument = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const HEAP_MB = argument("heap-mb", 400);
const ROUNDS = argument("rounds", 20);
const LAUNCHER = ["--noprofile", "--norc", "-c", 'read -r line <&3; exec bash -c "$line"'];

// about 1.5 MB of live objects per chunk
const heap = Array.from({ length: Math.round(HEAP_MB / 1.5) }, () =>
  Array.from({ length: 16_384 }, (_, j) => ({ j, s: `x${j}` })),
);

/** Runs `true` on a launcher given its control and input ends; resolves when it has exited. */
type Arm = () => Promise<{ control: Writable; input: Writable; exited: Promise<unknown> }>;

const direct: Arm = async () => {
  const child = spawn("/bin/bash", LAUNCHER, { stdio: ["pipe", "ignore", "ignore", "pipe"], detached: true });
  return { control: child.stdio[3] as Writable, input: child.stdin!, exited: new Promise((r) => child.on("exit", r)) };
};

/** A worker thread that spawns the launcher and runs `true` on it (its pipes stay with the worker's loop). */
function workerArm(): Arm {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     const { spawn } = require("node:child_process");
     parentPort.on("message", () => {
       const child = spawn("/bin/bash", ${JSON.stringify(LAUNCHER)}, { stdio: ["pipe", "ignore", "ignore", "pipe"], detached: true });
       child.on("exit", () => parentPort.postMessage("exited"));
       child.stdio[3].end("true\\n");
       child.stdin.end();
     });`,
    { eval: true },
  );
  worker.unref();
  const ended = { end: () => undefined } as unknown as Writable;
  return async () => {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker thread's postMessage takes no origin
    worker.postMessage("arm");
    return { control: ended, input: ended, exited: new Promise((r) => worker.once("message", r)) };
  };
}

/** A forker process: spawns the launcher and sends its stdin and control ends back as handles, then its exit. */
function forkerArm(): { arm: Arm; forker: ChildProcess } {
  const code = `const { spawn } = require("node:child_process");
    process.on("disconnect", () => process.exit(0));
    process.on("message", ({ id }) => {
      const child = spawn("/bin/bash", ${JSON.stringify(LAUNCHER)}, { stdio: ["pipe", "ignore", "ignore", "pipe"], detached: true });
      child.on("exit", (code, signal) => process.send({ id, code, signal }));
      process.send({ id, slot: 0 }, child.stdin);
      process.send({ id, slot: 3 }, child.stdio[3]);
    });`;
  const forker = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, { ends: Map<number, Writable>; ready: () => void; exited: () => void }>();
  forker.on("message", (message: { id: number; slot?: number }, handle?: Readable) => {
    const entry = waiting.get(message.id)!;
    if (message.slot === undefined) return entry.exited();
    entry.ends.set(message.slot, handle as unknown as Writable);
    if (entry.ends.size === 2) entry.ready();
  });
  let next = 0;
  const arm: Arm = async () => {
    const id = next++;
    const ends = new Map<number, Writable>();
    let ready = () => undefined as void;
    let exited = () => undefined as void;
    const isReady = new Promise<void>((r) => (ready = r));
    const hasExited = new Promise<void>((r) => (exited = r));
    waiting.set(id, { ends, ready, exited });
    forker.send({ id });
    await isReady;
    return { control: ends.get(3)!, input: ends.get(0)!, exited: hasExited };
  };
  return { arm, forker };
}

/** The longest gap between two turns of the event loop while `work` runs, the main thread writing to its heap. */
async function longestGap(work: () => Promise<void>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const ticker = (async () => {
    while (running) {
      for (let k = 0; k < 2000; k += 1) heap[(k * 7919) % heap.length]![k % 16_384]!.j += 1;
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  longest = 0;
  await work();
  await new Promise((resolve) => setTimeout(resolve, 5));
  running = false;
  await ticker;
  return longest;
}

const armAndRun = (arm: Arm) => async () => {
  const { control, input, exited } = await arm();
  control.end("true\n");
  input.end();
  await exited;
};

const { arm: viaForker, forker } = forkerArm();
const ways: Array<[string, () => Promise<void>]> = [
  ["nothing spawned", () => new Promise((resolve) => setTimeout(resolve, 8))],
  ["spawn on the main thread", armAndRun(direct)],
  ["spawn in a worker thread", armAndRun(workerArm())],
  ["spawn in a forker process", armAndRun(viaForker)],
];
const gaps = new Map(ways.map(([name]) => [name, [] as number[]]));
for (let round = 0; round < ROUNDS; round += 1)
  for (const [name, work] of ways) gaps.get(name)!.push(await longestGap(work));
const rss = Math.round(process.memoryUsage().rss / 1e6);
console.log(
  `launcher fork stall, ${rss} MB resident, ${ROUNDS} rounds alternated; longest event-loop gap per launcher:`,
);
for (const [name, values] of gaps) {
  const sorted = [...values].sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]!;
  console.log(`  ${name.padEnd(28)} median ${median(values).toFixed(2)} ms, p90 ${p90.toFixed(2)} ms`);
}
forker.disconnect();
process.exit(0);
