import { randomBytes } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createCheckpointer, withPruning } from "@skillgraph/checkpoint";

/** A chat session: the checkpointer it lives in and its thread name. */
export interface ChatSession {
  name: string;
  checkpointer: BaseCheckpointSaver;
  /** True when the thread already had checkpoints. */
  resumed: boolean;
}

/**
 * Opens the checkpointer behind `url` (pruned on write, keeping the last 20 checkpoints per thread and everything a
 * resume needs) and names the session: the given name, or a new time-stamped one.
 */
export async function openChatSession(name: string | undefined, url: string, cwd: string): Promise<ChatSession> {
  // Someone is waiting at the terminal: an unreachable database is reported at once, not after a restart's wait.
  const saver = await createCheckpointer(url, { cwd, startupRetryMs: 0 });
  const checkpointer = withPruning(saver, { keepLast: 20, onWrite: { every: 25 } });
  const sessionName =
    name ??
    `chat-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-")}-${randomBytes(2).toString("hex")}`;
  const resumed = (await saver.getTuple({ configurable: { thread_id: sessionName } })) !== undefined;
  return { name: sessionName, checkpointer, resumed };
}
