import { limitMessages } from "../executor/limit-messages.js";
import type { SessionSnapshot } from "./interactive-session.js";

/** A session poll as the model sees it. */
export function sessionPayload(snapshot: SessionSnapshot, command?: string): string {
  return JSON.stringify({
    status: snapshot.status,
    session_id: snapshot.sessionId,
    output: snapshot.output,
    ...(snapshot.droppedBytes > 0 ? { dropped_bytes: snapshot.droppedBytes } : {}),
    ...(snapshot.interaction ? { interaction: { waiting_for_input: true, prompt: snapshot.interaction.prompt } } : {}),
    ...(snapshot.result
      ? {
          exit_code: snapshot.result.exitCode,
          signal: snapshot.result.signal,
          timed_out: snapshot.result.timedOut,
          ...(snapshot.result.limitExceeded ? { limit_exceeded: limitMessages(snapshot.result) } : {}),
          duration_ms: Math.round(snapshot.result.durationMs),
        }
      : {}),
    ...(command ? { command } : {}),
  });
}
