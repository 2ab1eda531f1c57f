// Where a chat keeps its conversation and its files. Every chat is a checkpointed session (SQLite by default) unless
// --ephemeral; resume it with --session NAME.
import type { AgentFile } from "@skillgraph/core/agent-file";
import type { CliIO } from "../../io/cli-io.js";
import { sessionWorkspaceRoot } from "../../stores/session-workspaces.js";
import { sessionsUrl } from "../../stores/sessions-url.js";
import type { ChatOptions } from "./chat-options.js";
import { openChatSession, type ChatSession } from "./open-chat-session.js";

/** A chat's storage: its session (none when ephemeral) and the folder its workspaces live in. */
export interface ChatStorage {
  session: ChatSession | undefined;
  /** Undefined: a temporary workspace that goes when the process ends. */
  workspaceRoot: string | undefined;
}

/**
 * Opens the session the options name (or a new one) in `--checkpoint`, the agent file's checkpointer or the default.
 * The session's files live beside its checkpoints, so a resumed session finds them; an ephemeral session gets a
 * temporary workspace.
 */
export async function openChatStorage(
  options: ChatOptions,
  agentFile: AgentFile | undefined,
  io: CliIO,
): Promise<ChatStorage> {
  const checkpointUrl = sessionsUrl(options.checkpoint, io.env, agentFile?.checkpointer);
  const session = options.ephemeral ? undefined : await openChatSession(options.session, checkpointUrl, io.cwd);
  return { session, workspaceRoot: session ? sessionWorkspaceRoot(checkpointUrl, io.cwd, session.name) : undefined };
}
