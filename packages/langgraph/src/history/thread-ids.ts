import type { BaseMessage, ToolMessage } from "@langchain/core/messages";

/** Every tool-call id a thread already uses: the calls of its AI messages and the ids its tool results answer. */
export function threadIds(history: readonly BaseMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of history) {
    const type = message.getType();
    if (type === "ai") {
      for (const call of (message as { tool_calls?: Array<{ id?: string }> }).tool_calls ?? [])
        if (call.id) used.add(call.id);
    } else if (type === "tool") used.add((message as ToolMessage).tool_call_id);
  }
  return used;
}
