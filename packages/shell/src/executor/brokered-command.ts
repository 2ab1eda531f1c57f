import type { ExecutionResult, RunningCommand } from "./executor-types.js";
import type { BrokerProcess } from "./exec-broker.js";
import { runningWithResult } from "./running-with-result.js";

/**
 * The command with its broker: the result waits for the broker to end and carries the starts it refused, and the
 * broker's own errors on stderr (a broker that cannot work refuses every gated start, never runs one unjudged).
 */
export function withBrokeredStarts(running: RunningCommand, broker: BrokerProcess): RunningCommand {
  const result = running.result.then(async (ran): Promise<ExecutionResult> => {
    const { refused, errors } = await broker.finish();
    return {
      ...ran,
      ...(refused.length > 0 ? { refusedStarts: refused } : {}),
      ...(errors ? { stderr: `${ran.stderr}${ran.stderr.endsWith("\n") || !ran.stderr ? "" : "\n"}${errors}\n` } : {}),
    };
  });
  return runningWithResult(running, result);
}
