import type { ExecutionRequest } from "../executor/executor-types.js";
import { refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import { InteractiveSession } from "../sessions/interactive-session.js";
import { sessionPayload } from "../sessions/session-payload.js";
import type { StagedCall } from "./call-types.js";
import { refusalPayload } from "./tool-payload.js";

/** The refusal of a session past the thread's cap. */
const tooMany = (runtime: RuntimeView<"maxSessionsPerThread">) =>
  refusalPayload(
    refusal(
      "too-many-sessions",
      `this thread already has ${runtime.config.maxSessionsPerThread} sessions; kill one first`,
    ),
  );

/** The run step of an `interactive: true` call: starts a session (within the thread's cap) and returns its first poll. */
export async function startSession(
  runtime: RuntimeView<"maxSessionsPerThread" | "maxUnreadBytes" | "sessionsEnabled", "executor" | "sessions">,
  call: StagedCall,
  request: ExecutionRequest,
): Promise<string> {
  if (!runtime.config.sessionsEnabled)
    return refusalPayload(refusal("invalid-input", "interactive sessions are turned off"));
  if (runtime.services.sessions.count(call.threadId) >= runtime.config.maxSessionsPerThread) {
    return tooMany(runtime);
  }
  const executor = runtime.services.executor;
  const running = executor.startAsync ? await executor.startAsync(request) : executor.start(request);
  // another call of the thread may have started a session while this one prepared: the cap holds after the wait too
  if (runtime.services.sessions.count(call.threadId) >= runtime.config.maxSessionsPerThread) {
    await running.kill();
    return tooMany(runtime);
  }
  if (call.input.stdin !== undefined) running.write(call.input.stdin);
  const session = new InteractiveSession(runtime.services.sessions.newId(), running, runtime.config.maxUnreadBytes);
  runtime.services.sessions.add(call.threadId, session);
  const snapshot = await session.poll(1_000);
  if (snapshot.status === "exited") runtime.services.sessions.remove(call.threadId, session.id);
  return sessionPayload(snapshot, call.display);
}
