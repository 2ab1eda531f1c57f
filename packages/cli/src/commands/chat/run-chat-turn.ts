import type { ChatAgent, ChatTurnInput } from "./create-chat-agent.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { describeChatError } from "./describe-chat-error.js";

export { describeChatError } from "./describe-chat-error.js";

/** Runs one turn through the renderer; returns undefined on success, "interrupted" on Ctrl-C, or a one-line error. */
export async function runChatTurn(
  agent: ChatAgent,
  input: ChatTurnInput,
  renderer: ChatRenderer,
  {
    signal,
    endpoint,
  }: {
    signal?: AbortSignal | undefined;
    endpoint?: { baseURL: string | undefined; timeoutMs?: number } | undefined;
  } = {},
): Promise<string | undefined> {
  try {
    renderer.waiting();
    for await (const event of agent.turn(input, { signal })) renderer.render(event);
    return undefined;
  } catch (error) {
    if (signal?.aborted) return "interrupted";
    return describeChatError(error, endpoint);
  } finally {
    renderer.endTurn();
  }
}
