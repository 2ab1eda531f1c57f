import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { CappedOutput } from "../output/capped-output.js";
import type { ExecutionRequest, ExecutionResult, RunningCommand } from "./executor-types.js";
import { killLeftovers, signalGroup, terminateTree, trackGroup } from "./process-tree.js";

/** What to hand to `spawn`: an executor turns an {@link ExecutionRequest} into this. */
export interface SpawnSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * The command's whole tree ends with its first process (bubblewrap: the sandbox's PID namespace is emptied by the
   * kernel before bwrap exits), so after a normal exit only the process group is killed, without the /proc sweep.
   */
  contained?: boolean;
}

/** How a child that is already running (a pre-started launcher) is watched: see {@link superviseCommand}. */
export interface SuperviseOptions {
  /** When the command started (performance.now()), for durationMs. */
  started: number;
  /** See {@link SpawnSpec.contained}. */
  contained?: boolean;
}

/**
 * Spawns `spec` in its own process group (detached), caps its output, enforces the timeout and the output limit by
 * killing the whole tree, and after exit kills anything the command left behind.
 * @param spec what to spawn
 * @param request limits and the run marker
 */
export function spawnCommand(spec: SpawnSpec, request: ExecutionRequest): RunningCommand {
  const started = performance.now();
  const child = spawn(spec.file, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return superviseCommand(child, request, { started, contained: spec.contained });
}

/**
 * Watches a detached child (its own process group, stdio piped) as {@link spawnCommand} does: output caps, timeout,
 * kill, and after exit the leftovers of its tree.
 */
export function superviseCommand(
  child: ChildProcessWithoutNullStreams,
  request: ExecutionRequest,
  options: SuperviseOptions,
): RunningCommand {
  const { started } = options;
  const pid = child.pid ?? -1;
  const untrack = pid > 0 ? trackGroup(pid) : () => false;
  const stdout = new CappedOutput(request.maxOutputBytes);
  const stderr = new CappedOutput(request.maxOutputBytes);
  const listeners: Array<(stream: "stdout" | "stderr", chunk: Buffer) => void> = [];
  let timedOut = false;
  let outputLimitExceeded = false;
  let killed = false;
  let exited = false;
  let terminating: Promise<void> | undefined;
  const terminate = () => {
    if (!terminating)
      terminating = pid > 0 ? terminateTree(pid, request.runId, request.killGraceMs) : Promise.resolve();
    return terminating;
  };
  const onData = (stream: "stdout" | "stderr", capped: CappedOutput) => (chunk: Buffer) => {
    capped.push(chunk);
    for (const listener of listeners) listener(stream, chunk);
    if (!outputLimitExceeded && stdout.totalBytes + stderr.totalBytes > request.killAfterOutputBytes) {
      outputLimitExceeded = true;
      void terminate();
    }
  };
  child.stdout.on("data", onData("stdout", stdout));
  child.stderr.on("data", onData("stderr", stderr));
  child.stdin.on("error", () => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    void terminate();
  }, request.timeoutMs);

  const result = new Promise<ExecutionResult>((resolve) => {
    let spawnError: Error | undefined;
    child.once("error", (error) => {
      spawnError = error;
    });
    child.once("close", () => undefined);
    const finish = async (code: number | null, signal: NodeJS.Signals | null) => {
      exited = true;
      clearTimeout(timer);
      if (terminating) await terminating;
      if (pid > 0 && options.contained && !terminating) signalGroup(pid, "SIGKILL");
      else if (pid > 0) await killLeftovers(pid, request.runId);
      untrack();
      await streamsClosed(child, 2_000);
      const durationMs = performance.now() - started;
      resolve({
        exitCode: code,
        signal,
        stdout: stdout.text(),
        stderr: spawnError ? `${stderr.text()}${spawnError.message}` : stderr.text(),
        stdoutBytes: stdout.totalBytes,
        stderrBytes: stderr.totalBytes,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        outputLimitExceeded,
        killed,
        durationMs,
      });
    };
    child.once("exit", (code, signal) => void finish(code, signal));
    child.once("error", (error) => {
      if (pid <= 0) {
        spawnError = error;
        void finish(127, null);
      }
    });
  });

  return {
    pid,
    runId: request.runId,
    result,
    get exited() {
      return exited;
    },
    write(data) {
      if (child.stdin.destroyed || child.stdin.writableEnded) return false;
      child.stdin.write(data);
      return true;
    },
    closeStdin() {
      if (!child.stdin.writableEnded) child.stdin.end();
    },
    onOutput(listener) {
      listeners.push(listener);
    },
    async kill() {
      if (exited) return;
      killed = true;
      await terminate();
    },
  };
}

function streamsClosed(child: ReturnType<typeof spawn>, waitMs: number): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream) => stream && !stream.destroyed && !stream.readableEnded);
  if (streams.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let pending = streams.length;
    const timer = setTimeout(() => {
      for (const stream of streams) stream?.destroy();
      resolve();
    }, waitMs);
    for (const stream of streams) {
      stream?.once("close", () => {
        pending -= 1;
        if (pending === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
}

/** Starts `spec`, writes `request.stdin` (or nothing) and closes stdin, and waits for the result. */
export function runCommand(spec: SpawnSpec, request: ExecutionRequest): Promise<ExecutionResult> {
  const running = spawnCommand(spec, request);
  if (request.stdin !== undefined) running.write(request.stdin);
  running.closeStdin();
  return running.result;
}
