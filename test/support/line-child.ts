// A child Node process (TypeScript through tsx) that talks in JSON lines: send commands on stdin, wait for lines.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** A running child speaking JSON lines. */
export interface LineChild {
  readonly pid: number;
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: () => string;
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True until the process exited. */
  alive(): boolean;
  send(line: string): void;
  /** Waits for the first line (from `from` on) that `match` accepts. */
  waitFor(
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<Record<string, unknown>>;
  signal(name: NodeJS.Signals): void;
}

/** Starts `node --import tsx <script> ...args` with the workspace packages' sources. */
export function startLineChild(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): LineChild {
  const proc: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ["--conditions=@skillgraph/source", "--import", "tsx", script, ...args],
    { stdio: ["pipe", "pipe", "pipe"], env },
  );
  const lines: Array<Record<string, unknown>> = [];
  let buffered = "";
  let stderr = "";
  let running = true;
  const waiters = new Set<() => void>();
  proc.stdout.on("data", (chunk) => {
    buffered += String(chunk);
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        lines.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        lines.push({ text });
      }
      newline = buffered.indexOf("\n");
    }
    for (const wake of waiters) wake();
  });
  proc.stderr.on("data", (chunk) => (stderr += String(chunk)));
  proc.stdin.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on("close", (code, signal) => {
      running = false;
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  return {
    pid: proc.pid!,
    lines,
    stderr: () => stderr,
    exited,
    alive: () => running,
    send: (line) => void proc.stdin.write(`${line}\n`),
    signal: (name) => void proc.kill(name),
    waitFor(match, timeoutMs = 120_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.slice(from).find(match);
          if (found) {
            done();
            resolve(found);
          } else if (!running) {
            done();
            reject(new Error(`child ${proc.pid} exited before the line; stderr: ${stderr.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for a line from child ${proc.pid}; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
