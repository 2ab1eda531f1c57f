// Repair of a thread left with tool calls that never got an answer (Ctrl-C during a tool call, a killed process).
// Kept in this one file: @skillgraph/langgraph has no repair function on main yet; replace this when it does.
import { ToolMessage } from "@langchain/core/messages";

interface MessageLike {
  type?: string;
  getType?: () => string;
  _getType?: () => string;
  tool_call_id?: string;
  tool_calls?: Array<{ id?: string; name: string }>;
}

/** Text of the ToolMessage that answers a cancelled call. */
export const CANCELLED_TOOL_CALL_TEXT = "Cancelled: the user interrupted this tool call before it finished; it may not have run. Ask before retrying.";

/** Tool calls in `messages` that no ToolMessage answers, in order. */
export function danglingToolCalls(messages: readonly unknown[]): Array<{ id: string; name: string }> {
  const answered = new Set<string>();
  const calls: Array<{ id: string; name: string }> = [];
  for (const message of messages as MessageLike[]) {
    const type = message.getType?.() ?? message._getType?.() ?? message.type;
    if (type === "tool" && message.tool_call_id) answered.add(message.tool_call_id);
    if (type === "ai") for (const call of message.tool_calls ?? []) if (call.id) calls.push({ id: call.id, name: call.name });
  }
  return calls.filter((call) => !answered.has(call.id));
}

/** One ToolMessage per dangling call saying it was cancelled (status "error", so the model does not trust a result). */
export function cancelledToolMessages(calls: ReadonlyArray<{ id: string; name: string }>): ToolMessage[] {
  return calls.map((call) => new ToolMessage({ tool_call_id: call.id, name: call.name, content: CANCELLED_TOOL_CALL_TEXT, status: "error" }));
}
