import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { checkpointStats, inspectSession } from "@skillgraph/checkpoint";
import { truncate } from "../../output/format-table.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { loadSkillsFromArgs } from "../../skill-sources-from-args.js";
import { formatBytes } from "./parse-duration.js";
import type { SessionsContext } from "./sessions-command.js";

/**
 * `sessions show NAME`: the session's storage, loaded skills (flagging those changed on disk since, checked against
 * `skills` or the conventional folders), pending writes and approvals, and messages; exit 1 when it is not stored.
 */
export async function showSession(
  saver: BaseCheckpointSaver,
  name: string,
  skills: string[] | undefined,
  context: SessionsContext,
): Promise<number> {
  const { io, out, style, json } = context;
  const registry = await loadSkillsFromArgs(skills && skills.length > 0 ? skills : undefined, io, { report: !json });
  const session = await inspectSession(saver, name, registry);
  if (!session.exists) {
    io.stderr.write(`error: session '${terminalSafeLine(name)}' not found\n`);
    return 1;
  }
  const stats = await checkpointStats(saver, name);
  if (json) {
    out(
      JSON.stringify({
        ...session,
        updatedAt: session.updatedAt === undefined ? null : new Date(session.updatedAt).toISOString(),
        storage: stats,
      }),
    );
    return 0;
  }
  out(
    `${style.bold(terminalSafeLine(name))}  step ${session.lastStep ?? "-"}  ${session.updatedAt ? new Date(session.updatedAt).toISOString() : ""}`,
  );
  out(style.dim(`${stats.checkpoints} checkpoints, ${stats.writes} writes, ${formatBytes(stats.bytes)}`));
  out(`\nLoaded skills (${session.loadedSkills.length}):`);
  for (const skill of session.loadedSkills) {
    const drift = session.drift.find((d) => d.name === skill.name && d.agentId === skill.agentId);
    const mark = drift ? style.yellow(` [${drift.kind} on disk]`) : "";
    out(`  ${terminalSafeLine(`${skill.agentId ? `${skill.agentId}/` : ""}${skill.name} (${skill.mode})`)}${mark}`);
  }
  if (session.pendingWrites > 0)
    out(
      style.dim(
        `${session.pendingWrites} write${session.pendingWrites === 1 ? "" : "s"} of an unfinished step stored (applied when the session resumes)`,
      ),
    );
  if (session.pendingInterrupts.length > 0)
    out(
      style.yellow(
        `\nWaiting for approval: ${terminalSafeLine(session.pendingInterrupts.map((value) => JSON.stringify(value)).join(", "))}`,
      ),
    );
  out(`\nMessages (${session.messages.length}):`);
  const width = Math.max(30, ((io.stdout as { columns?: number }).columns ?? 100) - 12);
  for (const message of session.messages) {
    const body = message.toolCalls ? `calls ${message.toolCalls.join(", ")}` : message.content;
    out(`  ${style.cyan(message.type.padEnd(6))} ${truncate(terminalSafeLine(body), width)}`);
  }
  return 0;
}
