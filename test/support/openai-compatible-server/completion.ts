import { makeCompletionId, makeToolCallId, type EndpointProfile } from "./profiles.js";
import type { Random } from "./random.js";
import type { RecordedChatRequest, ScriptedReplyObject } from "./types.js";

/** A tool call as it goes on the wire; `id` undefined means the field is left out. */
export interface WireToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/** Usage as OpenAI reports it. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One completion, before it is sent as JSON or SSE. */
export interface Completion {
  id: string;
  model: string;
  content: string;
  toolCalls: WireToolCall[];
  /** `"omit"`: no `finish_reason` field. */
  finishReason: string | null;
  /** Undefined: no usage sent. */
  usage: Usage | undefined;
}

/** Everything `buildCompletion` needs. */
export interface CompletionInput {
  request: RecordedChatRequest;
  reply: ScriptedReplyObject;
  profile: EndpointProfile;
  random: Random;
  /** 1-based count of completions served by this process, this one included. */
  served: number;
}

/** JSON with every non-ASCII character escaped as `\uXXXX` (what Python's `json.dumps` sends by default). */
export function asciiJson(json: string): string {
  return json.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const half = (text: string) => [...text].slice(0, Math.ceil([...text].length / 2)).join("");

function encodeArguments(reply: ScriptedReplyObject, profile: EndpointProfile, raw: unknown): string {
  const json = typeof raw === "string" ? raw : JSON.stringify(raw ?? {});
  const chunking = reply.toolCallChunks ?? profile.toolCallChunks;
  const encoded = chunking === "awkward" ? asciiJson(json) : json;
  if (reply.invalidArguments === "single-quotes") return encoded.replaceAll('"', "'");
  if (reply.invalidArguments === "trailing-text") return `${encoded}\n</tool_call>`;
  return encoded;
}

/** The completion a scripted reply becomes under the endpoint profile (ids, quirks, usage). */
export function buildCompletion({ request, reply, profile, random, served }: CompletionInput): Completion {
  const id = makeCompletionId(profile, random, served);
  const toolCalls: WireToolCall[] = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? makeToolCallId(profile, random, { completionId: id, served, position, name: call.name }),
    name: call.name,
    arguments: encodeArguments(reply, profile, call.arguments),
  }));
  let content = reply.content ?? "";
  if (reply.cutOff) {
    const last = toolCalls.at(-1);
    if (last) last.arguments = half(last.arguments);
    else content = half(content);
  }
  const finishReason =
    reply.finishReason !== undefined
      ? reply.finishReason
      : reply.cutOff
        ? "length"
        : toolCalls.length > 0
          ? "tool_calls"
          : "stop";
  const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens = Math.ceil(
    (content.length + toolCalls.reduce((sum, call) => sum + call.arguments.length, 0)) / 4,
  );
  const usage =
    reply.omitUsage || profile.omitUsage
      ? undefined
      : {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        };
  return { id, model: request.model, content, toolCalls, finishReason, usage };
}

/** A tool call's wire object, without `id` when the profile leaves it out. */
export function wireToolCall(call: WireToolCall): Record<string, unknown> {
  return {
    ...(call.id === undefined ? {} : { id: call.id }),
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  };
}

/** The non-streaming `chat.completion` object. */
export function completionJson(completion: Completion): Record<string, unknown> {
  const { content, toolCalls } = completion;
  const message = {
    role: "assistant",
    content: content === "" && toolCalls.length > 0 ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(wireToolCall) } : {}),
  };
  return {
    id: completion.id,
    object: "chat.completion",
    created: 0,
    model: completion.model,
    choices: [
      {
        index: 0,
        message,
        ...(completion.finishReason === "omit" ? {} : { finish_reason: completion.finishReason }),
        logprobs: null,
      },
    ],
    ...(completion.usage ? { usage: completion.usage } : {}),
  };
}
