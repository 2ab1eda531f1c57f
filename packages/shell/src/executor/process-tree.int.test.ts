import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { processExiting } from "./process-tree.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** Starts `argv` and answers the first line it prints (a pid), with the process itself. */
async function startPrinting(argv: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  started.push(child);
  let out = "";
  while (!out.includes("\n")) {
    const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
    out += chunk.toString();
  }
  return { child, line: out.split("\n")[0]!.trim() };
}

/** The state letter of one thread (`/proc/<pid>/task/<tid>/stat`'s third field). */
function threadState(pid: number, tid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/**
 * Waits (bounded: 10 s) until the thread is a zombie; fails the test with what it saw otherwise, and with what became
 * of `parent` (the process that should hold the zombie unreaped).
 */
async function untilZombie(parent: ChildProcess, pid: number, tid = pid): Promise<void> {
  for (let wait = 0; wait < 1000; wait += 1) {
    if (threadState(pid, tid) === "Z") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ended = parent.exitCode ?? parent.signalCode;
  throw new Error(
    `thread ${tid} of ${pid} never became a zombie (state ${threadState(pid, tid)}; ` +
      `its parent ${ended === null ? "still runs" : `ended: ${ended}`})`,
  );
}

const python = spawnSync("python3", ["-c", "import ctypes, threading"], { stdio: "ignore" }).status === 0;

describe.skipIf(process.platform !== "linux")("processExiting", () => {
  it("is false for a running process and true for one that exited (not yet reaped) or is gone", async () => {
    // the background subshell exits only once its parent has become `sleep 30`, which never reaps it: a zombie,
    // PF_EXITING set. (Exiting at once raced the shell, which may reap it before its exec.)
    // (it also ends if its parent is gone first, rather than loop on as an orphan)
    const waitForExec = 'while c=$(cat /proc/$p/comm 2>/dev/null) && [ "$c" != sleep ]; do sleep 0.01; done';
    const script = `p=$$; (${waitForExec}) & echo $!; exec sleep 30`;
    const { child, line } = await startPrinting(["/bin/sh", "-c", script]);
    const zombie = Number(line);
    await untilZombie(child, zombie);
    expect(processExiting(child.pid!)).toBe(false);
    expect(processExiting(zombie)).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(processExiting(child.pid!)).toBe(true);
  });

  // python3 is the one program here whose first thread can end while another runs on (pthread_exit)
  it.skipIf(!python)("is false for a process whose first thread exited while another thread runs on", async () => {
    const script =
      "import ctypes, os, sys, threading, time\n" +
      "threading.Thread(target=time.sleep, args=(30,)).start()\n" +
      "print(os.getpid(), flush=True)\n" +
      "ctypes.CDLL(None).pthread_exit(None)\n";
    const { child } = await startPrinting(["python3", "-c", script]);
    await untilZombie(child, child.pid!);
    expect(processExiting(child.pid!)).toBe(false);
  });
});
