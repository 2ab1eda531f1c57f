import type { ExecutionRequest } from "../executor/executor-types.js";
import { refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import { InteractiveSession } from "../sessions/interactive-session.js";
import { sessionPayload } from "../sessions/session-payload.js";
import type { StagedCall } from "./call-types.js";
import { refusalPayload } from "./tool-payload.js";

/** The run step of an `interactive: true` call: starts a session (within the thread's cap) and returns its first poll. */
export async function startSession(
  runtime: RuntimeView<"maxSessionsPerThread" | "maxUnreadBytes" | "sessionsEnabled", "executor" | "sessions">,
  call: StagedCall,
  request: ExecutionRequest,
): Promise<string> {
  if (!runtime.config.sessionsEnabled)
    return refusalPayload(refusal("invalid-input", "interactive sessions are turned off"));
  if (runtime.services.sessions.count(call.threadId) >= runtime.config.maxSessionsPerThread) {
    return refusalPayload(
      refusal(
        "too-many-sessions",
        `this thread already has ${runtime.config.maxSessionsPerThread} sessions; kill one first`,
      ),
    );
  }
  const running = runtime.services.executor.start(request);
  if (call.input.stdin !== undefined) running.write(call.input.stdin);
  const session = new InteractiveSession(runtime.services.sessions.newId(), running, runtime.config.maxUnreadBytes);
  runtime.services.sessions.add(call.threadId, session);
  const snapshot = await session.poll(1_000);
  if (snapshot.status === "exited") runtime.services.sessions.remove(call.threadId, session.id);
  return sessionPayload(snapshot, call.display);
}
