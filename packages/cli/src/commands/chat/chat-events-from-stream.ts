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

/** What the conversion remembers across stream items: tool names by call id, and calls and results already reported. */
export interface ChatStreamContext {
  toolNames: Map<string, string>;
  /** `call:<id>` and `result:<id>` keys; createAgent middleware nodes echo the whole message list in their updates. */
  reported: Set<string>;
}

/** A fresh context; `seedChatStreamContext` marks a thread's existing messages as already reported. */
export function createChatStreamContext(): ChatStreamContext {
  return { toolNames: new Map(), reported: new Set() };
}

/** Marks every tool call and result in `messages` as reported (history of a resumed thread is not shown again). */
export function seedChatStreamContext(context: ChatStreamContext, messages: readonly unknown[]): void {
  eventsFromMessages(messages as MessageLike[], context);
}

/**
 * Chat events carried by one item of a LangGraph stream run with `streamMode: ["messages", "custom", "updates"]`:
 * answer tokens from "messages", skill events from "custom", finished tool calls and tool results from "updates"
 * (each call and result reported once, however often a node echoes it).
 */
export function chatEventsFromStream(mode: StreamMode, chunk: unknown, context: ChatStreamContext): ChatEvent[] {
  if (mode === "messages") return tokensOf(chunk as [MessageLike, unknown]);
  if (mode === "custom") {
    const event = (chunk as { skillgraph?: ChatEvent & { type: string } } | undefined)?.skillgraph;
    return event && typeof event.type === "string"
      ? [{ type: "skill", event: event as Extract<ChatEvent, { type: "skill" }>["event"] }]
      : [];
  }
  return Object.values((chunk ?? {}) as Record<string, unknown>).flatMap((update) =>
    eventsFromMessages(messagesOf(update), context),
  );
}

/** The answer text of one "messages" item (the runtime gives a reply's tokens and the stored reply one id, so LangGraph emits each answer once). */
function tokensOf([message]: [MessageLike, unknown]): ChatEvent[] {
  if (messageType(message) !== "ai") return [];
  const text = textOf(message.content);
  return text === "" ? [] : [{ type: "token", text }];
}

function eventsFromMessages(messages: readonly MessageLike[], context: ChatStreamContext): ChatEvent[] {
  const events: ChatEvent[] = [];
  const firstTime = (key: string | undefined) => {
    if (key === undefined) return true;
    if (context.reported.has(key)) return false;
    context.reported.add(key);
    return true;
  };
  for (const message of messages) {
    const type = messageType(message);
    if (type === "ai") {
      for (const call of message.tool_calls ?? []) {
        if (call.id) context.toolNames.set(call.id, call.name);
        if (firstTime(call.id ? `call:${call.id}` : undefined))
          events.push({ type: "tool-call", id: call.id, name: call.name, args: call.args ?? {} });
      }
    } else if (type === "tool") {
      const id = message.tool_call_id;
      if (!firstTime(id ? `result:${id}` : undefined)) continue;
      events.push({
        type: "tool-result",
        id,
        name: message.name ?? (id ? context.toolNames.get(id) : undefined) ?? "tool",
        content: textOf(message.content),
        isError: message.status === "error",
      });
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
  return content
    .map((part) =>
      typeof part === "string"
        ? part
        : (part as { type?: string; text?: string }).type === "text"
          ? ((part as { text?: string }).text ?? "")
          : "",
    )
    .join("");
}
