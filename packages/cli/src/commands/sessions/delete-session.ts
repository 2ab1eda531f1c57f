import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { removeSessionWorkspace, sessionWorkspaceRoot } from "../../stores/session-workspaces.js";
import type { SessionsContext } from "./sessions-command.js";
import { requireStoredSession } from "./stored-session.js";

/** `sessions delete NAME`: the session's checkpoints and its workspace; exit 1 when there is no such session. */
export async function deleteSession(
  saver: BaseCheckpointSaver,
  name: string,
  context: SessionsContext,
): Promise<number> {
  const { io, url, out } = context;
  if (!(await requireStoredSession(saver, name, context))) return 1;
  await saver.deleteThread(name);
  const workspace = sessionWorkspaceRoot(url, io.cwd, name);
  const hadWorkspace = await removeSessionWorkspace(url, io.cwd, name);
  if (context.json) out(JSON.stringify({ deleted: name, workspaceRemoved: hadWorkspace ? workspace : null }));
  else out(`Deleted session '${name}'${hadWorkspace ? ` and its workspace ${workspace}` : ""}.`);
  return 0;
}
