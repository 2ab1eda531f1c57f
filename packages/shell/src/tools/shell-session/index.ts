import type { RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { threadIdOf } from "../../runtime/loaded-skill-names.js";
import { sessionPayload } from "../../sessions/session-payload.js";
import type { RuntimeView } from "../../runtime/shell-runtime.js";
import { refusalPayload } from "../../call/tool-payload.js";
import { refusal } from "../../policy/refusal.js";
import type { InteractiveSession } from "../../sessions/interactive-session.js";

const waitField = z
  .number()
  .int()
  .min(0)
  .max(30_000)
  .optional()
  .describe("Wait up to this many milliseconds for output (default 1000).");

function findSession(
  runtime: RuntimeView<never, "sessions">,
  sessionId: string,
  config: RunnableConfig,
): InteractiveSession | string {
  const session = runtime.services.sessions.get(threadIdOf(config), sessionId);
  return (
    session ??
    refusalPayload(
      refusal(
        "session-not-found",
        `no session '${sessionId}' on this thread (it exited, was killed, or belongs to another thread)`,
      ),
    )
  );
}

async function pollAndReport(
  runtime: RuntimeView<never, "sessions">,
  session: InteractiveSession,
  waitMs: number,
  config: RunnableConfig,
): Promise<string> {
  const snapshot = await session.poll(waitMs);
  if (snapshot.status === "exited") runtime.services.sessions.remove(threadIdOf(config), session.id);
  return sessionPayload(snapshot);
}

/**
 * The session tools: `shell_session_write` (send text to stdin, then poll), `shell_session_poll` (read new output),
 * `shell_session_kill` (kill the program's process tree). Sessions are per thread and live in memory only.
 * @param runtime the shared shell runtime
 */
export function createShellSessionTools(runtime: RuntimeView<never, "sessions">) {
  const write = tool(
    async ({ session_id, input, close_stdin, wait_ms }, config) => {
      const session = findSession(runtime, session_id, config);
      if (typeof session === "string") return session;
      if (!session.write(input))
        return refusalPayload(refusal("invalid-input", `session '${session_id}' no longer accepts input`));
      if (close_stdin) session.closeStdin();
      return pollAndReport(runtime, session, wait_ms ?? 1_000, config);
    },
    {
      name: "shell_session_write",
      description:
        "Send text to the standard input of an interactive session (include '\\n' to press Enter), then return the new output.",
      schema: z.object({
        session_id: z.string(),
        input: z.string().describe("Text to send; end with \\n to submit a line."),
        close_stdin: z.boolean().optional().describe("Close stdin after writing (end of input)."),
        wait_ms: waitField,
      }),
    },
  );
  const poll = tool(
    async ({ session_id, wait_ms }, config) => {
      const session = findSession(runtime, session_id, config);
      if (typeof session === "string") return session;
      return pollAndReport(runtime, session, wait_ms ?? 1_000, config);
    },
    {
      name: "shell_session_poll",
      description:
        "Return the output an interactive session produced since the last call, and whether it is still running.",
      schema: z.object({ session_id: z.string(), wait_ms: waitField }),
    },
  );
  const kill = tool(
    async ({ session_id }, config) => {
      const session = findSession(runtime, session_id, config);
      if (typeof session === "string") return session;
      await session.kill();
      const snapshot = await session.poll(0);
      runtime.services.sessions.remove(threadIdOf(config), session_id);
      return sessionPayload(snapshot);
    },
    {
      name: "shell_session_kill",
      description: "Kill an interactive session and everything it started.",
      schema: z.object({ session_id: z.string() }),
    },
  );
  return [write, poll, kill];
}
