import { isAIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";

/**
 * What a strict server accepts, checked in one pass that stops at the first violation: each tool result right after
 * its own call, each call answered once, call ids unique and non-empty in the thread.
 */
export function validOnWire(messages: readonly BaseMessage[]): boolean {
  const ids = new Set<string>();
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at]!;
    if (message.getType() === "tool") return false;
    if (!isAIMessage(message) || !message.tool_calls?.length) continue;
    const pending = new Set<string>();
    for (const call of message.tool_calls) {
      if (!call.id || ids.has(call.id)) return false;
      ids.add(call.id);
      pending.add(call.id);
    }
    while (at + 1 < messages.length && messages[at + 1]!.getType() === "tool")
      if (!pending.delete((messages[++at] as ToolMessage).tool_call_id)) return false;
    if (pending.size > 0) return false;
  }
  return true;
}
