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

/** A readable one-line message for a failed model call (connection refused, HTTP status, bad model name). */
export function describeChatError(error: unknown): string {
  const err = error as { message?: string; status?: number; cause?: { code?: string; message?: string }; name?: string };
  const cause = err.cause?.code ?? err.cause?.message;
  const status = typeof err.status === "number" ? `HTTP ${err.status}: ` : "";
  return `${status}${err.message ?? String(error)}${cause && !(err.message ?? "").includes(cause) ? ` (${cause})` : ""}`;
}
