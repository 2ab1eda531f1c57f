import type { WireMessage } from "./openai-compatible-server.js";

/** A LangChain message as far as the wire order of calls and results goes. */
interface HistoryMessage {
  getType(): string;
  tool_calls?: Array<{ id?: string }>;
  tool_call_id?: string;
}

/**
 * What a strict server (api.openai.com) refuses in a conversation: an empty or repeated tool-call id, a tool result
 * that answers no open call of the assistant message before it, a call left unanswered before the next message.
 * Accepts wire messages (what a request carried) or LangChain messages (what a thread stores).
 */
export function strictHistoryProblems(messages: ReadonlyArray<WireMessage | HistoryMessage>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let open = new Set<string>();
  messages.forEach((message, index) => {
    const role = "role" in message ? message.role : message.getType();
    if (role === "tool") {
      if (!open.delete(message.tool_call_id ?? ""))
        problems.push(`messages[${index}]: tool result answers no open call`);
      return;
    }
    if (open.size > 0) problems.push(`messages[${index}]: ${open.size} call(s) left unanswered`);
    open = new Set();
    for (const call of message.tool_calls ?? []) {
      if (!call.id) problems.push(`messages[${index}]: empty tool call id`);
      else if (seen.has(call.id)) problems.push(`messages[${index}]: repeated tool call id ${call.id}`);
      if (call.id) seen.add(call.id);
      open.add(call.id ?? "");
    }
  });
  if (open.size > 0) problems.push(`end: ${open.size} call(s) left unanswered`);
  return problems;
}
