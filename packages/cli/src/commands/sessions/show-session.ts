import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { checkpointStats, inspectSession } from "@skillgraph/checkpoint";
import { inspectHistory } from "@skillgraph/langgraph/repair";
import { truncate } from "../../output/format-table.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { openChatSession } from "./chat-session-graph.js";
import { formatBytes } from "./parse-duration.js";
import { damagedHistoryBlock, messageBody, messageJson } from "./session-history-output.js";
import type { SessionsContext } from "./sessions-command.js";

/**
 * `sessions show NAME`: the session's storage, loaded skills (flagging those changed on disk since, checked against
 * `skills` or the conventional folders), pending writes and approvals, a damaged history's problems, and messages with
 * their tool calls; exit 1 when it is not stored.
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
  const messages = await (await openChatSession(saver, name)).messages();
  const { problems } = inspectHistory(messages);
  if (json) {
    out(
      JSON.stringify({
        ...session,
        updatedAt: session.updatedAt === undefined ? null : new Date(session.updatedAt).toISOString(),
        storage: stats,
        messages: messages.map(messageJson),
        problems,
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
  if (problems.length > 0) for (const line of damagedHistoryBlock(name, problems, style)) out(line);
  out(`\nMessages (${messages.length}):`);
  const width = Math.max(30, ((io.stdout as { columns?: number }).columns ?? 100) - 18);
  messages.forEach((message, index) => {
    const number = style.dim(String(index).padStart(4));
    const body = truncate(terminalSafeLine(messageBody(message)), width);
    out(`${number} ${style.cyan(message.getType().padEnd(6))} ${body}`);
  });
  return 0;
}
