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
  runtime: RuntimeView<
    "maxSessionsPerThread" | "maxUnreadBytes" | "sessionsEnabled",
    "executor" | "sessions" | "workspaces"
  >,
  call: StagedCall,
  request: ExecutionRequest,
): Promise<string> {
  const refused = async (payload: string) => {
    await runtime.services.workspaces.removeRunFolderIfEmpty(call.runDir);
    return payload;
  };
  if (!runtime.config.sessionsEnabled)
    return refused(refusalPayload(refusal("invalid-input", "interactive sessions are turned off")));
  if (runtime.services.sessions.count(call.threadId) >= runtime.config.maxSessionsPerThread) {
    return refused(tooMany(runtime));
  }
  const executor = runtime.services.executor;
  const running = executor.startAsync ? await executor.startAsync(request) : executor.start(request);
  // another call of the thread may have started a session while this one prepared: the cap holds after the wait too
  if (runtime.services.sessions.count(call.threadId) >= runtime.config.maxSessionsPerThread) {
    await running.kill();
    await running.result;
    return refused(tooMany(runtime));
  }
  if (call.input.stdin !== undefined) running.write(call.input.stdin);
  // the run's folder goes when the program ends, if it left it empty (as after a run that is not interactive)
  const session = new InteractiveSession(
    runtime.services.sessions.newId(),
    running,
    runtime.config.maxUnreadBytes,
    () => runtime.services.workspaces.removeRunFolderIfEmpty(call.runDir),
  );
  runtime.services.sessions.add(call.threadId, session);
  const snapshot = await session.poll(1_000);
  if (snapshot.status === "exited") runtime.services.sessions.remove(call.threadId, session.id);
  return sessionPayload(snapshot, call.display);
}
