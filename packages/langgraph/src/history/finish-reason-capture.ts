// The finish reason of a streamed model call. When a graph streams (`streamMode: "messages"`), LangChain's chat model
// aggregates the streamed chunks and keeps the endpoint's `finish_reason` in the generation's `generationInfo` only,
// not in the message's `response_metadata` as it does when it does not stream: a reply cut off by the token limit
// (`finish_reason: "length"`) would look complete. A callback handler reads it where it is.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { LLMResult } from "@langchain/core/outputs";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

class FinishReasonHandler extends BaseCallbackHandler {
  name = "skillgraph_finish_reason";
  override awaitHandlers = true;
  finishReason: string | undefined;

  override handleLLMEnd(output: LLMResult): void {
    const info = output.generations[0]?.[0]?.generationInfo as { finish_reason?: unknown } | undefined;
    if (typeof info?.finish_reason === "string") this.finishReason = info.finish_reason;
  }
}

interface HandlerList {
  addHandler(handler: BaseCallbackHandler, inherit?: boolean): void;
  removeHandler(handler: BaseCallbackHandler): void;
}

/**
 * Runs `call` (one model call) with a handler on the callback manager of `callbacks` (the node's, by default the
 * current runnable's) that reads the call's finish reason; the handler is removed afterwards. Without a callback
 * manager (no graph around the call) nothing is read and the reply's own metadata is all there is.
 */
export async function withFinishReason<T>(
  call: () => Promise<T>,
  callbacks: unknown = AsyncLocalStorageProviderSingleton.getRunnableConfig()?.callbacks,
): Promise<{ value: T; finishReason: string | undefined }> {
  const manager = callbacks as Partial<HandlerList> | undefined;
  if (typeof manager?.addHandler !== "function" || typeof manager.removeHandler !== "function")
    return { value: await call(), finishReason: undefined };
  const handler = new FinishReasonHandler();
  manager.addHandler(handler, true);
  try {
    return { value: await call(), finishReason: handler.finishReason };
  } finally {
    manager.removeHandler(handler);
  }
}
