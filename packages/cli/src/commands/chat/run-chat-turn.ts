import type { ChatAgent } from "./create-chat-agent.js";
import type { ChatRenderer } from "./chat-renderer.js";

/** Runs one turn through the renderer; returns undefined on success or a one-line error message. */
export async function runChatTurn(agent: ChatAgent, input: string, renderer: ChatRenderer, signal?: AbortSignal): Promise<string | undefined> {
  try {
    for await (const event of agent.turn(input, { signal })) renderer.render(event);
    return undefined;
  } catch (error) {
    if (signal?.aborted) return "interrupted";
    return describeChatError(error);
  } finally {
    renderer.endTurn();
  }
}

/** A readable one-line message for a failed model call: the endpoint's own message (which starts with the HTTP status), plus the network error code. */
export function describeChatError(error: unknown): string {
  const err = error as { message?: string; status?: number };
  const message = (err.message ?? String(error)).split("\n")[0]!;
  const status = typeof err.status === "number" && !message.startsWith(String(err.status)) ? `${err.status} ` : "";
  const code = networkCode(error);
  return `${status}${message}${code && !message.includes(code) ? ` (${code})` : ""}`;
}

/** The first `code` such as ECONNREFUSED along the error's cause chain. */
function networkCode(error: unknown): string | undefined {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 5; current = current.cause as typeof current, depth++) {
    if (typeof current.code === "string" && /^E[A-Z_]+$/.test(current.code)) return current.code;
  }
  return undefined;
}
