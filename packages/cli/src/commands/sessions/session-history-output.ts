// How `sessions show` and `sessions repair` print a stored history: each message with its tool calls (parsed and
// unparsed), and the problems `inspectHistory` found in it.
import { isAIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { HistoryProblem } from "@skillgraph/langgraph/repair";
import type { Style } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";

/** One message of a session for `--json`: the flattened fields, and every tool call of an AI message. */
export interface SessionMessageJson {
  type: string;
  content: string;
  id?: string;
  /** Names of the tools an AI message called (parsed calls). */
  toolCalls?: string[];
  tool_calls?: Array<{ id: string; name: string; args: unknown }>;
  /** Calls whose arguments did not parse: they never ran. */
  invalid_tool_calls?: Array<{ id: string; name: string; args: unknown; error: string | undefined }>;
  /** The call a tool message answers. */
  toolCallId?: string;
}

/** A message as `sessions show --json` prints it. */
export function messageJson(message: BaseMessage): SessionMessageJson {
  const json: SessionMessageJson = { type: message.getType(), content: message.text };
  if (message.id) json.id = message.id;
  if (isAIMessage(message)) {
    const calls = message.tool_calls ?? [];
    if (calls.length > 0) json.toolCalls = calls.map((call) => call.name);
    json.tool_calls = calls.map((call) => ({ id: call.id ?? "", name: call.name, args: call.args }));
    json.invalid_tool_calls = (message.invalid_tool_calls ?? []).map((call) => ({
      id: call.id ?? "",
      name: call.name ?? "",
      args: call.args,
      error: call.error,
    }));
  }
  if (message.getType() === "tool") json.toolCallId = (message as ToolMessage).tool_call_id;
  return json;
}

/** The text shown for a message in the human listing: its text, its calls (with ids), its unparsed calls. */
export function messageBody(message: BaseMessage): string {
  const parts = message.text.trim() === "" ? [] : [message.text];
  if (isAIMessage(message)) {
    const calls = message.tool_calls ?? [];
    if (calls.length > 0) parts.push(`calls ${calls.map((call) => `${call.name} [${call.id || "no id"}]`).join(", ")}`);
    for (const call of message.invalid_tool_calls ?? [])
      parts.push(
        `invalid call ${call.name ?? "?"} [${call.id || "no id"}]: ${call.error ?? "arguments did not parse"}`,
      );
  }
  if (message.getType() === "tool") parts.unshift(`[${(message as ToolMessage).tool_call_id || "no id"}]`);
  return parts.length > 0 ? parts.join(" | ") : "(empty)";
}

/** One line per problem: the message index, the code, what is wrong. */
export function problemLines(problems: readonly HistoryProblem[]): string[] {
  return problems.map((problem) => terminalSafeLine(`message ${problem.index}: ${problem.code}: ${problem.detail}`));
}

/** What to do about the problems: repair when it has something to write, else what every request already does. */
function advice(name: string, problems: readonly HistoryProblem[]): string {
  if (problems.some((problem) => problem.code === "unanswered-call"))
    return `Run: skillgraph sessions repair ${terminalSafeLine(name)}`;
  return "Nothing to repair: every request leaves these out or sends them under unique ids (sessions repair writes nothing).";
}

/** The warning block of a damaged session, ending with what to do about it. */
export function damagedHistoryBlock(name: string, problems: readonly HistoryProblem[], style: Style): string[] {
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return [
    style.yellow(
      `\nWarning: this session's history is damaged (${problems.length} problem${problems.length === 1 ? "" : "s"}, ${errors} that strict model servers reject as stored).`,
    ),
    style.yellow("Sessions saved by an older skillgraph can hold replaced replies and repeated tool-call ids:"),
    ...problemLines(problems).map((line) => `  ${line}`),
    style.yellow(advice(name, problems)),
  ];
}
