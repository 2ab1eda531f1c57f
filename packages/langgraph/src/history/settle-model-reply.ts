// A model reply settled before it reaches state: an id of this runtime, tool-call ids unique in the thread, and calls
// that must not run (arguments that are not JSON, a reply cut off by the token limit) marked as refused.
import { randomBytes } from "node:crypto";
import { AIMessage, type BaseMessage, type InvalidToolCall, type ToolCall } from "@langchain/core/messages";
import { replyToolCalls } from "./reply-tool-calls.js";
import { threadIds } from "./thread-ids.js";

/** Why a call of a settled reply is answered with an error instead of being run. */
export type RefusedCallReason = "invalid-arguments" | "cut-off";

/** A call the runtime answers itself: the model is told why and can call again. */
export interface RefusedCall {
  reason: RefusedCallReason;
  /** The parser's message (invalid arguments) or the finish reason (cut off). */
  detail: string;
  /** The arguments as the endpoint sent them, when they were not a JSON object. */
  rawArguments?: string;
}

/** What the runtime records under `response_metadata.skillgraph` of a settled reply (left out when it would be empty). */
export interface SettledReplyRecord {
  /** The id the endpoint gave the reply (`chatcmpl-…`), when it gave one. */
  providerMessageId?: string;
  /** Runtime tool-call id → the endpoint's id, for calls whose id had to change (empty, repeated, missing). */
  providerToolCallIds?: Record<string, string>;
  /** Calls answered with an error instead of running, by tool-call id. */
  refusedCalls?: Record<string, RefusedCall>;
  /** The endpoint stopped the reply at its output token limit (`finish_reason: "length"`). */
  cutOff?: boolean;
}

/** The key of the runtime's record in a reply's `response_metadata`. */
export const SETTLED_REPLY_KEY = "skillgraph";

const CUT_OFF_REASONS = new Set(["length", "max_tokens", "model_length"]);
const NINE_CHAR_ID = /^[A-Za-z0-9]{9}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Settles a model reply against the thread it joins: the reply gets an id of its own (LangGraph's messages reducers
 * replace a message whose id is already in state, and endpoints repeat completion ids), every tool call gets an id
 * no other call or result in the thread has (the endpoint's id is kept when it is already unique), calls whose
 * arguments are not JSON come back as tool calls the runtime refuses (so the model is told), and every call of a reply
 * cut off by the token limit is refused. The reply object itself is not changed.
 * @param reply the model's reply
 * @param history the thread's messages before the reply (the full state, not a trimmed view)
 * @param options what the call's callbacks saw (see observeModelCall): the id chosen for the reply before the call,
 *   the endpoint's id and the finish reason when the reply's metadata lacks them (a streamed call)
 * @example
 * const settled = settleModelReply(await model.invoke(messages), state.messages);
 */
export function settleModelReply(
  reply: AIMessage,
  history: readonly BaseMessage[],
  options: SettleOptions = {},
): AIMessage {
  const fields = settledReplyFields(reply, history, options);
  return new AIMessage(fields as ConstructorParameters<typeof AIMessage>[0] & object);
}

/**
 * The fields of a settled reply. A field the reply does not have (`name`, `usage_metadata`) is left out rather than
 * set to undefined: a checkpoint saver stores an undefined field as a marker object, on every message at every step.
 */
export interface SettledReplyFields {
  id: string;
  content: AIMessage["content"];
  name?: string;
  additional_kwargs: AIMessage["additional_kwargs"];
  response_metadata: AIMessage["response_metadata"];
  usage_metadata?: AIMessage["usage_metadata"];
  tool_calls: ToolCall[];
  invalid_tool_calls: InvalidToolCall[];
}

/** The fields of the settled reply (what {@link settleModelReply} builds its AIMessage from), for a caller that sets them on the reply itself. */
export function settledReplyFields(
  reply: AIMessage,
  history: readonly BaseMessage[],
  options: SettleOptions = {},
): SettledReplyFields {
  const record: SettledReplyRecord = {};
  const providerId = options.providerMessageId ?? (reply.id !== options.id ? reply.id : undefined);
  if (providerId) record.providerMessageId = providerId;
  const finish = finishReason(reply) ?? options.finishReason;
  if (finish !== undefined && CUT_OFF_REASONS.has(finish)) record.cutOff = true;
  const calls = settleToolCalls(reply, options.usedIds ?? threadIds(history), record, finish ?? "length");
  const renamed = record.providerToolCallIds ?? {};
  // a record the reply carried already (a settled reply passed through again) is replaced by this one
  const { [SETTLED_REPLY_KEY]: _carried, ...metadata } = reply.response_metadata ?? {};
  const fields: SettledReplyFields = {
    content: renameContentBlocks(reply.content, renamed),
    additional_kwargs: withoutStaleRawCalls(reply.additional_kwargs, renamed),
    response_metadata: {
      ...(finish === undefined ? {} : { finish_reason: finish }),
      ...metadata,
      // no record when it would be empty (no endpoint id, nothing renamed, refused or cut off)
      ...(isEmptyRecord(record) ? {} : { [SETTLED_REPLY_KEY]: record }),
    },
    tool_calls: calls,
    invalid_tool_calls: [] as InvalidToolCall[],
    id: options.id ?? newReplyId(),
  };
  if (reply.name !== undefined) fields.name = reply.name;
  if (reply.usage_metadata !== undefined) fields.usage_metadata = reply.usage_metadata;
  return fields;
}

function isEmptyRecord(record: SettledReplyRecord): boolean {
  return (
    record.providerMessageId === undefined &&
    record.providerToolCallIds === undefined &&
    record.refusedCalls === undefined &&
    record.cutOff === undefined
  );
}

/** What a model call's callbacks saw, for `settleModelReply`. */
export interface SettleOptions {
  /** The reply's id, chosen before the call (streamed tokens carried it). @default a new one */
  id?: string;
  /** The id the endpoint gave the reply. @default the reply's id when it is not `id` */
  providerMessageId?: string;
  /** The call's finish reason when the reply's metadata lacks it. */
  finishReason?: string;
  /**
   * The tool-call ids `history` uses, when the caller keeps them (see HistoryIndex); read, never changed.
   * @default computed from `history`
   */
  usedIds?: ReadonlySet<string>;
}

/**
 * This process's random part of reply ids, drawn once: 96 random bits in 16 characters (an id is then this part and a
 * counter). Short on purpose: every checkpoint stores every reply's id again.
 */
let replyIdPrefix: string | undefined;
let replyIdCount = 0;

/** A new reply id of this runtime: unique across processes (96 random bits per process) and within one (a counter). */
export function newReplyId(): string {
  replyIdPrefix ??= `sgr-${randomBytes(12).toString("base64url")}`;
  replyIdCount += 1;
  return `${replyIdPrefix}-${replyIdCount.toString(36)}`;
}

/**
 * The runtime's record on a reply, if the runtime settled it and had something to record (a reply the endpoint gave
 * no id, whose calls all kept their ids and ran, has none; its id is still the runtime's).
 */
export function settledReplyRecord(message: BaseMessage): SettledReplyRecord | undefined {
  const metadata = (message as { response_metadata?: Record<string, unknown> }).response_metadata;
  const record = metadata?.[SETTLED_REPLY_KEY];
  return record && typeof record === "object" ? (record as SettledReplyRecord) : undefined;
}

function finishReason(reply: AIMessage): string | undefined {
  const metadata = reply.response_metadata as { finish_reason?: unknown; stop_reason?: unknown } | undefined;
  const reason = metadata?.finish_reason ?? metadata?.stop_reason;
  return typeof reason === "string" ? reason : undefined;
}

/** The reply's calls, valid then invalid, each with a thread-unique id; refusals recorded in `record`. */
function settleToolCalls(
  reply: AIMessage,
  threadUsed: ReadonlySet<string>,
  record: SettledReplyRecord,
  finish: string,
): ToolCall[] {
  const { valid, invalid } = replyToolCalls(reply);
  if (valid.length === 0 && invalid.length === 0) return [];
  // The thread's ids are shared (a caller's cache): this reply's own ids go to a set of their own.
  const taken = new Set<string>();
  const used = { has: (id: string) => threadUsed.has(id) || taken.has(id), add: (id: string) => void taken.add(id) };
  const settled: ToolCall[] = [];
  const refuse = (id: string, refusal: RefusedCall) => {
    record.refusedCalls = { ...record.refusedCalls, [id]: refusal };
  };
  for (const call of valid) {
    const id = uniqueCallId(call.id, used, record);
    settled.push({ ...call, id, type: "tool_call" });
    if (record.cutOff) refuse(id, { reason: "cut-off", detail: finish });
  }
  for (const call of invalid) {
    const id = uniqueCallId(call.id, used, record);
    settled.push({ name: call.name ?? "unknown_tool", args: {}, id, type: "tool_call" });
    const rawArguments = typeof call.args === "string" ? call.args : undefined;
    refuse(
      id,
      record.cutOff
        ? { reason: "cut-off", detail: finish, ...(rawArguments ? { rawArguments } : {}) }
        : {
            reason: "invalid-arguments",
            detail: call.error ?? "not a JSON object",
            ...(rawArguments ? { rawArguments } : {}),
          },
    );
  }
  return settled;
}

/** The endpoint's id when no call or result of the thread (or this reply) has it; otherwise a fresh one of its shape. */
function uniqueCallId(
  providerId: string | undefined,
  used: { has(id: string): boolean; add(id: string): void },
  record: SettledReplyRecord,
): string {
  if (providerId && !used.has(providerId)) {
    used.add(providerId);
    return providerId;
  }
  let id: string;
  do id = freshCallId(providerId ?? "");
  while (used.has(id));
  used.add(id);
  if (providerId !== undefined) record.providerToolCallIds = { ...record.providerToolCallIds, [id]: providerId };
  return id;
}

/** A new call id: 9 letters and digits where the endpoint uses that shape (Mistral checks it), else `call_` + 24. */
function freshCallId(like: string): string {
  return NINE_CHAR_ID.test(like) ? randomAlphanumeric(9) : `call_${randomAlphanumeric(24)}`;
}

function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** Content blocks that carry a call id (Anthropic's `tool_use`, standard `tool_call`) follow a renamed call. */
function renameContentBlocks(content: AIMessage["content"], renamed: Record<string, string>): AIMessage["content"] {
  if (!Array.isArray(content) || Object.keys(renamed).length === 0) return content;
  const byProvider = new Map(Object.entries(renamed).map(([ours, theirs]) => [theirs, ours]));
  return content.map((block) => {
    const id = (block as { id?: unknown }).id;
    const type = (block as { type?: unknown }).type;
    if (typeof id !== "string" || !byProvider.has(id) || (type !== "tool_use" && type !== "tool_call")) return block;
    return { ...block, id: byProvider.get(id)! };
  }) as AIMessage["content"];
}

/**
 * Without the endpoint's raw calls (`additional_kwargs.tool_calls`) once a call was renamed: they still carry the old
 * ids, and ChatOpenAI sends the settled `tool_calls` whenever there are any.
 */
function withoutStaleRawCalls(
  kwargs: AIMessage["additional_kwargs"],
  renamed: Record<string, string>,
): AIMessage["additional_kwargs"] {
  if (!Array.isArray(kwargs?.tool_calls) || Object.keys(renamed).length === 0) return kwargs;
  const { tool_calls: _stale, ...rest } = kwargs;
  return rest;
}
