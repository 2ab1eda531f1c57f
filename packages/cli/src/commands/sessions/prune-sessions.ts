import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { checkpointStats, listSessions, pruneCheckpoints } from "@skillgraph/checkpoint";
import { pruneSessionWorkspaces, workspacesFolder } from "../../stores/session-workspaces.js";
import { formatBytes } from "./parse-duration.js";
import type { SessionsContext } from "./sessions-command.js";
import { requireStoredSession } from "./stored-session.js";

/** What `sessions prune` keeps: the last N checkpoints of each session and/or those younger than the age. */
export interface PrunePolicy {
  keepLast: number | undefined;
  maxAgeMs: number | undefined;
}

/** "s" unless there is exactly one. */
const plural = (count: number) => (count === 1 ? "" : "s");

/**
 * `sessions prune [NAME]`: drops checkpoints beyond the policy (every session, or the named one), then the workspaces of
 * sessions gone from the store and, with --max-age, those unused that long. Exit 1 when NAME is not stored.
 */
export async function pruneSessions(
  saver: BaseCheckpointSaver,
  name: string | undefined,
  policy: PrunePolicy,
  context: SessionsContext,
): Promise<number> {
  const { io, url, out } = context;
  if (name !== undefined && !(await requireStoredSession(saver, name, context))) return 1;
  const before = await checkpointStats(saver, name);
  const report = await pruneCheckpoints(saver, policy, name);
  const after = await checkpointStats(saver, name);
  const live = (await listSessions(saver)).map((session) => session.threadId);
  const workspacesRemoved = await pruneSessionWorkspaces(url, io.cwd, live, {
    ...(policy.maxAgeMs === undefined ? {} : { maxAgeMs: policy.maxAgeMs }),
    ...(name === undefined ? {} : { only: name }),
  });
  if (context.json) {
    out(JSON.stringify({ ...report, before, after, workspacesRemoved }));
    return 0;
  }
  if (workspacesRemoved.length > 0)
    out(
      `Removed ${workspacesRemoved.length} session workspace${plural(workspacesRemoved.length)} from ${workspacesFolder(url, io.cwd)}.`,
    );
  out(
    `Pruned ${report.removed} checkpoint${plural(report.removed)} from ${report.threads} session${plural(report.threads)}: ${formatBytes(before.bytes)} -> ${formatBytes(after.bytes)}.`,
  );
  const kept = Object.entries(report.kept).filter(([reason, count]) => reason !== "policy" && count > 0);
  if (kept.length > 0)
    out(
      context.style.dim(
        `kept beyond the policy because a resume needs them: ${kept.map(([reason, count]) => `${count} ${reason}`).join(", ")}`,
      ),
    );
  return 0;
}
