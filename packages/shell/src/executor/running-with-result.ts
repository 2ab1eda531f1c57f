// A started command whose result is another promise (the same command, its result completed by what ran beside it).
import type { ExecutionResult, RunningCommand } from "./executor-types.js";

/** The command `running` with `result` in place of its own; everything else is read from and passed to `running`. */
export function runningWithResult(running: RunningCommand, result: Promise<ExecutionResult>): RunningCommand {
  return {
    get pid() {
      return running.pid;
    },
    get runId() {
      return running.runId;
    },
    get exited() {
      return running.exited;
    },
    result,
    write: (data) => running.write(data),
    closeStdin: () => running.closeStdin(),
    onOutput: (listener) => running.onOutput(listener),
    kill: () => running.kill(),
  };
}
