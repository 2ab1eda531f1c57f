// What a model call looks like from its callbacks, and the reply id set where streaming sees it.
//
// The reply's id: LangGraph's `streamMode: "messages"` streams a call's tokens under the id their chunks carry (the
// endpoint's) and, at the node's end, emits the node's stored reply again when its id was not streamed. A reply whose
// id the runtime sets after the call would be printed twice by every streaming client. So the id is chosen before the
// call and written onto each chunk by a handler that runs before LangGraph's (first in the callback list): tokens and
// the stored reply share it. The endpoint's own id is recorded on the way.
//
// The finish reason: when a graph streams, LangChain aggregates the chunks and keeps the endpoint's `finish_reason` in
// the generation's `generationInfo` only, not in the message's `response_metadata` as it does when it does not stream;
// a reply cut off by the token limit would look complete. The same handler reads it where it is.
//
// Only where some handler already listens (a stream, a tracer): a first handler makes LangChain format every message
// of the request for tracing on each call. With none, nothing streams, and LangChain merges the generation's
// `finish_reason` into the reply's `response_metadata` itself, where the endpoint's id also stays.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, LLMResult } from "@langchain/core/outputs";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

/** What one model call showed its callbacks. */
export interface ObservedModelCall<T> {
  value: T;
  /** `finish_reason` of the call's generation, when the endpoint sent one. */
  finishReason: string | undefined;
  /** The id the endpoint gave the reply's chunks (before they were given `replyId`). */
  providerMessageId: string | undefined;
}

class ModelCallHandler extends BaseCallbackHandler {
  name = "skillgraph_model_call";
  override awaitHandlers = true;
  finishReason: string | undefined;
  providerMessageId: string | undefined;

  constructor(private readonly replyId: string) {
    super();
  }

  // LangChain's callback signature (positional, six parameters): not ours to take an object.
  // oxlint-disable-next-line eslint/max-params
  override handleLLMNewToken(
    _token: string,
    _index: unknown,
    _runId: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: ChatGenerationChunk },
  ): void {
    const message = (fields?.chunk as { message?: BaseMessage } | undefined)?.message;
    if (message) this.stamp(message);
  }

  override handleLLMEnd(output: LLMResult): void {
    const generation = output.generations[0]?.[0] as {
      message?: BaseMessage;
      generationInfo?: Record<string, unknown>;
    };
    if (generation?.message) this.stamp(generation.message);
    const reason = generation?.generationInfo?.finish_reason;
    if (typeof reason === "string") this.finishReason = reason;
  }

  private stamp(message: BaseMessage): void {
    if (message.id === this.replyId) return;
    if (message.id && !message.id.startsWith("run-")) this.providerMessageId ??= message.id;
    message.id = this.replyId;
    (message.lc_kwargs as { id?: string }).id = this.replyId;
  }
}

interface HandlerList {
  handlers: BaseCallbackHandler[];
  inheritableHandlers: BaseCallbackHandler[];
  removeHandler(handler: BaseCallbackHandler): void;
}

/**
 * Runs `call` (one model call) with a handler first on the callback manager of `callbacks` (the node's, by default the
 * current runnable's): the call's chunks and generation carry `replyId`, and its finish reason and the endpoint's id
 * are read. The handler is removed afterwards. Without a callback manager (no graph around the call), or with one no
 * handler listens on, nothing is streamed, so nothing is stamped or read, and the reply's own metadata is all there is.
 */
export async function observeModelCall<T>(
  call: () => Promise<T>,
  replyId: string,
  callbacks: unknown = AsyncLocalStorageProviderSingleton.getRunnableConfig()?.callbacks,
): Promise<ObservedModelCall<T>> {
  const manager = callbacks as Partial<HandlerList> | undefined;
  if (!isListenedTo(manager)) return { value: await call(), finishReason: undefined, providerMessageId: undefined };
  const handler = new ModelCallHandler(replyId);
  // first, so LangGraph's stream handler (already on the list) sees the id this handler writes
  manager.handlers.unshift(handler);
  manager.inheritableHandlers.unshift(handler);
  try {
    const value = await call();
    return { value, finishReason: handler.finishReason, providerMessageId: handler.providerMessageId };
  } finally {
    manager.removeHandler(handler);
  }
}

/** Whether `manager` is a callback manager some handler listens on (then a streamed call's chunks reach it). */
function isListenedTo(manager: Partial<HandlerList> | undefined): manager is HandlerList {
  if (!Array.isArray(manager?.handlers) || !Array.isArray(manager.inheritableHandlers) || !manager.removeHandler)
    return false;
  return manager.handlers.length > 0 || manager.inheritableHandlers.length > 0;
}
