import type { ChatEvent } from "./chat-event.js";

type StreamMode = "messages" | "custom" | "updates";

interface MessageLike {
  type?: string;
  _getType?: () => string;
  getType?: () => string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  status?: string;
  tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
}

/**
 * Chat events carried by one item of a LangGraph stream run with `streamMode: ["messages", "custom", "updates"]`:
 * answer tokens from "messages", skill events from "custom", finished tool calls and tool results from "updates".
 * @param toolNames tool call id -> tool name, filled from calls so results can be named
 */
export function chatEventsFromStream(mode: StreamMode, chunk: unknown, toolNames: Map<string, string>): ChatEvent[] {
  if (mode === "messages") {
    const [message] = chunk as [MessageLike, unknown];
    if (messageType(message) !== "ai") return [];
    const text = textOf(message.content);
    return text === "" ? [] : [{ type: "token", text }];
  }
  if (mode === "custom") {
    const event = (chunk as { skillgraph?: ChatEvent & { type: string } } | undefined)?.skillgraph;
    return event && typeof event.type === "string" ? [{ type: "skill", event: event as Extract<ChatEvent, { type: "skill" }>["event"] }] : [];
  }
  const events: ChatEvent[] = [];
  for (const update of Object.values((chunk ?? {}) as Record<string, unknown>)) {
    for (const message of messagesOf(update)) {
      const type = messageType(message);
      if (type === "ai") {
        for (const call of message.tool_calls ?? []) {
          if (call.id) toolNames.set(call.id, call.name);
          events.push({ type: "tool-call", id: call.id, name: call.name, args: call.args ?? {} });
        }
      } else if (type === "tool") {
        const id = message.tool_call_id;
        events.push({ type: "tool-result", id, name: message.name ?? (id ? toolNames.get(id) : undefined) ?? "tool", content: textOf(message.content), isError: message.status === "error" });
      }
    }
  }
  return events;
}

/** The messages in one node's update (an object with `messages`, or a list of such updates from parallel sends). */
function messagesOf(update: unknown): MessageLike[] {
  if (Array.isArray(update)) return update.flatMap(messagesOf);
  const messages = (update as { messages?: unknown } | null | undefined)?.messages;
  if (Array.isArray(messages)) return messages as MessageLike[];
  return messages && typeof messages === "object" ? [messages as MessageLike] : [];
}

function messageType(message: MessageLike | undefined): string | undefined {
  if (!message) return undefined;
  if (typeof message.getType === "function") return message.getType();
  if (typeof message._getType === "function") return message._getType();
  return message.type;
}

/** The text of message content: a string, or the text parts of a content array. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part === "string" ? part : (part as { type?: string; text?: string }).type === "text" ? ((part as { text?: string }).text ?? "") : "")).join("");
}
