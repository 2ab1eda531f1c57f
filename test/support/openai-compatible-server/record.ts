import type { IncomingHttpHeaders } from "node:http";
import type { RecordedChatRequest, WireMessage } from "./types.js";

/** The plain text of a wire message's content (string or text parts). */
export function textOf(content: WireMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** What a chat completion request carried, in the shape tests assert on. */
export function recordRequest(
  index: number,
  body: RecordedChatRequest["body"],
  headers: IncomingHttpHeaders,
): RecordedChatRequest {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const system = messages
    .filter((message) => message.role === "system" || message.role === "developer")
    .map((message) => textOf(message.content));
  return {
    index,
    body,
    model: String(body.model ?? ""),
    stream: body.stream === true,
    messages,
    systemPrompt: system.length > 0 ? system.join("\n\n") : undefined,
    tools,
    toolNames: tools.map((tool) => tool.function.name),
    headers,
  };
}
