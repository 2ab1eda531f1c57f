import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { messagesDeltaReducer, type BaseCheckpointSaver } from "@langchain/langgraph";
import { acquireSessionLease, SessionBusyError, type SessionLease } from "@skillgraph/checkpoint";
import {
  inspectHistory,
  renameRepeatedToolCallIds,
  repairDanglingToolCalls,
  type HistoryProblem,
  type KeptToolCallId,
  type RenamedToolCall,
} from "@skillgraph/langgraph/repair";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { openChatSession, type ChatSessionGraph } from "./chat-session-graph.js";
import { problemLines } from "./session-history-output.js";
import type { SessionsContext } from "./sessions-command.js";
import { requireStoredSession } from "./stored-session.js";

/** A tool call `sessions repair` answered with a "cancelled" result. */
export interface CancelledCall {
  /** Index of the call's AI message. */
  index: number;
  callIndex: number;
  toolCallId: string;
  name: string;
  /** Id of the stored cancellation ToolMessage. */
  resultId: string;
}

/** What `sessions repair` did (with --dry-run: would do), as `--json` prints it. */
export interface SessionRepairReport {
  session: string;
  dryRun: boolean;
  cancelled: CancelledCall[];
  /** Repeated or empty tool-call ids given unique ids (AI message and result replaced in place). */
  renamed: RenamedToolCall[];
  /** Repeated or empty tool-call ids left as stored (every request sends them under unique ids), with the reason. */
  kept: KeptToolCallId[];
  /** Problems before the repair. */
  before: HistoryProblem[];
  /** Problems after it (with --dry-run: what they would be). */
  after: HistoryProblem[];
  /** Left in storage, kept out of every model request (results left out, call ids sent unique). */
  fixedInRequests: HistoryProblem[];
  /** Left as they are: accepted by model servers, a sign of the old damage. */
  warnings: HistoryProblem[];
  /** What the repair could not fix: the session is not sound while there is one. */
  unfixed: HistoryProblem[];
  /** True when every request the session sends is one a strict server accepts. */
  sound: boolean;
}

/**
 * `sessions repair NAME`: gives repeated and empty tool-call ids unique ids (AI message and result replaced in place,
 * where both have their own message id) and answers the tool calls left without a result with a "cancelled" result,
 * through the chat graph under the session's lease; never deletes a message; reports what stays in storage. Exit 0
 * when the session is sound afterwards, 1 when something could not be fixed, the session is busy or not chat's.
 */
export async function repairSession(
  saver: BaseCheckpointSaver,
  name: string,
  dryRun: boolean,
  context: SessionsContext,
): Promise<number> {
  if (!(await requireStoredSession(saver, name, context))) return 1;
  const fail = (message: string) => (context.io.stderr.write(`error: ${terminalSafeLine(message)}\n`), 1);
  let lease: SessionLease | undefined;
  try {
    if (!dryRun) lease = await acquireSessionLease(saver, name);
  } catch (error) {
    if (SessionBusyError.isInstance(error)) return fail(error.message);
    throw error;
  }
  try {
    const session = await openChatSession(lease ? lease.protect(saver) : saver, name);
    const refusal = await refusalOf(session, name);
    if (refusal) return fail(refusal);
    const report = await repairHistory(session, name, dryRun);
    if (context.json) context.out(JSON.stringify(report));
    else printReport(report, context);
    return report.sound ? 0 : 1;
  } finally {
    await lease?.release();
  }
}

/** Why the session cannot be repaired here, or undefined. */
async function refusalOf(session: ChatSessionGraph, name: string): Promise<string | undefined> {
  const foreign = await session.foreignChannels();
  if (foreign.length > 0)
    return `session '${name}' was not written by skillgraph chat (channels ${foreign.join(", ")}): repair only rewrites chat sessions`;
  if (await session.waitsForInterrupt())
    return `session '${name}' waits for an approval: answer it with skillgraph chat --session ${name} first`;
  const pending = await session.pendingWrites();
  if (pending > 0)
    return `session '${name}' holds ${pending} stored write(s) of an unfinished step, which a repair would leave behind: continue it with skillgraph chat --session ${name} first`;
  return undefined;
}

/** Writes the renamed ids and the cancellations (unless a dry run) and reports the problems before and after. */
async function repairHistory(session: ChatSessionGraph, name: string, dryRun: boolean): Promise<SessionRepairReport> {
  const messages = await session.messages();
  const before = inspectHistory(messages).problems;
  const renaming = renameRepeatedToolCallIds(messages);
  const { repairs } = repairDanglingToolCalls(renaming.history);
  const writes = [...renaming.messages, ...repairs];
  if (!dryRun && writes.length > 0) await session.graph.updateState(session.config, { messages: writes }, "end_turn");
  const afterMessages = dryRun ? (messagesDeltaReducer(messages, [writes]) as BaseMessage[]) : await session.messages();
  const after = inspectHistory(afterMessages).problems;
  const unanswered = inspectHistory(renaming.history).problems.filter((problem) => problem.code === "unanswered-call");
  const cancelled = repairs.map((repair: ToolMessage, at) => ({
    index: unanswered[at]?.index ?? -1,
    callIndex: unanswered[at]?.callIndex ?? 0,
    toolCallId: repair.tool_call_id,
    name: repair.name ?? "",
    resultId: repair.id ?? "",
  }));
  const errors = after.filter((problem) => problem.severity === "error");
  const stored = (problem: HistoryProblem) => !problem.fixedInRequests || problem.code === "unanswered-call";
  const unfixed = errors.filter(stored);
  return {
    session: name,
    dryRun,
    cancelled,
    renamed: renaming.renamed,
    kept: renaming.kept,
    before,
    after,
    fixedInRequests: errors.filter((problem) => !stored(problem)),
    warnings: after.filter((problem) => problem.severity === "warning"),
    unfixed,
    sound: unfixed.length === 0,
  };
}

/** The human report: what was written, what stays and why, and whether the session is sound. */
function printReport(report: SessionRepairReport, context: SessionsContext): void {
  const { out, style } = context;
  const name = terminalSafeLine(report.session);
  if (report.before.length === 0) {
    out(`Session '${name}' has no problems: nothing to repair.`);
    return;
  }
  const verb = report.dryRun ? "Would answer" : "Answered";
  const wrote = report.cancelled.length + report.renamed.length > 0;
  if (report.dryRun) out(`Dry run: nothing written to session '${name}'.`);
  else out(wrote ? `Repaired session '${name}'.` : `Nothing to write to session '${name}'.`);
  if (report.cancelled.length > 0) {
    out(`${verb} ${report.cancelled.length} tool call(s) left without a result with a "cancelled" result:`);
    for (const call of report.cancelled)
      out(`  message ${call.index}: ${terminalSafeLine(`${call.name} [${call.toolCallId || "no id"}]`)}`);
  }
  if (report.renamed.length > 0) {
    const did = report.dryRun ? "Would give" : "Gave";
    out(
      `${did} ${report.renamed.length} repeated or empty tool-call id(s) a unique id (call and result replaced in place):`,
    );
    for (const call of report.renamed)
      out(`  message ${call.index}: ${terminalSafeLine(`${call.from || "(empty)"} -> ${call.to}`)}`);
  }
  for (const kept of report.kept)
    out(
      style.dim(`Kept ${terminalSafeLine(`${kept.toolCallId || "(empty)"} of message ${kept.index}: ${kept.reason}`)}`),
    );
  const section = (title: string, problems: HistoryProblem[]) => {
    if (problems.length === 0) return;
    out(title);
    for (const line of problemLines(problems)) out(`  ${line}`);
  };
  section(
    "Left in storage (no stored message is deleted), fixed in every request sent to the model:",
    report.fixedInRequests,
  );
  section("Left as they are (model servers accept them):", report.warnings);
  section(style.red("Not fixed:"), report.unfixed);
  const is = report.dryRun ? "would be" : "is";
  out(
    report.sound
      ? style.green(`Session '${name}' ${is} sound: every request it sends pairs each tool result with its own call.`)
      : style.red(`Session '${name}' ${is} not sound: ${report.unfixed.length} problem(s) above cannot be fixed.`),
  );
}
