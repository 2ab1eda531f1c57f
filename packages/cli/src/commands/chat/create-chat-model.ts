import type { AIMessageChunk } from "@langchain/core/messages";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { ChatOpenAI, type ChatOpenAICallOptions } from "@langchain/openai";
import type { ChatEndpoint } from "./chat-endpoint.js";
import { ModelCallTimeoutError } from "./model-call-timeout-error.js";
import { readErrorBody, rememberEndpointErrorBody } from "./endpoint-error-body.js";

/** One model call's HTTP attempts and the body of its last failed response. */
interface CallRecord {
  attempts: number;
  errorBody?: string;
}

/**
 * ChatOpenAI whose `callTimeoutMs` is wall-clock over one whole model call, retries included: the call gets an abort
 * signal that fires after the limit (LangChain's `timeout` call option), every HTTP attempt is counted, and a call
 * that runs out of time throws a ModelCallTimeoutError saying how many attempts were made.
 */
class WallClockChatOpenAI extends ChatOpenAI {
  constructor(
    private readonly settings: ConstructorParameters<typeof ChatOpenAI>[0],
    private readonly callTimeoutMs: number | undefined,
    /** HTTP requests of the current call and the body of its last failed response, shared with copies (reset when a call starts; one call at a time). */
    private readonly counter: CallRecord,
  ) {
    super(settings);
  }

  /** bindTools() goes through withConfig(): the copy must keep the limit and the counter (ChatOpenAI's drops both). */
  override withConfig(config: Partial<ChatOpenAICallOptions>): this {
    const copy = new WallClockChatOpenAI(this.settings, this.callTimeoutMs, this.counter);
    const options = this as unknown as { defaultOptions?: object };
    (copy as unknown as { defaultOptions?: object }).defaultOptions = { ...options.defaultOptions, ...config };
    return copy as this;
  }

  static override lc_name(): string {
    return "ChatOpenAI";
  }

  private withDeadline(options: Partial<ChatOpenAICallOptions> | undefined): Partial<ChatOpenAICallOptions> {
    this.counter.attempts = 0;
    this.counter.errorBody = undefined;
    if (this.callTimeoutMs === undefined) return options ?? {};
    const given = options?.timeout;
    return { ...options, timeout: given === undefined ? this.callTimeoutMs : Math.min(given, this.callTimeoutMs) };
  }

  private timedOut(started: number, error: unknown): unknown {
    rememberEndpointErrorBody(error, this.counter.errorBody);
    if (this.callTimeoutMs === undefined || Date.now() - started < this.callTimeoutMs - 50) return error;
    return new ModelCallTimeoutError({ timeoutMs: this.callTimeoutMs, attempts: this.counter.attempts, cause: error });
  }

  override async invoke(input: BaseLanguageModelInput, options?: Partial<ChatOpenAICallOptions>) {
    const started = Date.now();
    try {
      return await super.invoke(input, this.withDeadline(options));
    } catch (error) {
      throw this.timedOut(started, error);
    }
  }

  override async *_streamIterator(
    input: BaseLanguageModelInput,
    options?: Partial<ChatOpenAICallOptions>,
  ): AsyncGenerator<AIMessageChunk> {
    const started = Date.now();
    try {
      yield* super._streamIterator(input, this.withDeadline(options));
    } catch (error) {
      throw this.timedOut(started, error);
    }
  }
}

/**
 * A ChatOpenAI client for any OpenAI-compatible endpoint (chat completions API).
 * Stream it (`.stream()` or a LangGraph `streamMode: "messages"` run); with `streaming: true`, `.invoke()` stalls offline on a tokenizer download.
 * @param endpoint base URL, key and model name (see `resolveChatEndpoint`)
 * @param options.maxRetries retries of failed HTTP calls @default 2
 * @param options.timeoutMs wall-clock limit of one model call, every retry included @default the client's (10 minutes a request)
 * @param options.temperature / topP / maxTokens / stop sampling settings and stop sequences (an agent file's model
 * parameters) @default the endpoint's
 */
export function createChatModel(
  endpoint: ChatEndpoint,
  options: {
    maxRetries?: number;
    temperature?: number;
    topP?: number;
    maxTokens?: number;
    stop?: string[];
    timeoutMs?: number;
  } = {},
): ChatOpenAI {
  const counter: CallRecord = { attempts: 0 };
  // Counts the HTTP attempts of a call (the retries go through the same fetch) and keeps what a failed one said.
  const countingFetch: typeof fetch = async (input, init) => {
    counter.attempts++;
    const response = await fetch(input, init);
    if (!response.ok) counter.errorBody = await readErrorBody(response);
    return response;
  };
  return new WallClockChatOpenAI(
    {
      model: endpoint.model,
      apiKey: endpoint.apiKey,
      maxRetries: options.maxRetries ?? 2,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.topP === undefined ? {} : { topP: options.topP }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      configuration: {
        fetch: countingFetch,
        ...(endpoint.baseURL === undefined ? {} : { baseURL: endpoint.baseURL }),
      },
    },
    options.timeoutMs,
    counter,
  );
}
