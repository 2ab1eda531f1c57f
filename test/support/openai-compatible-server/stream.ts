import type { ServerResponse } from "node:http";
import type { Completion, WireToolCall } from "./completion.js";
import { streamErrorPayload } from "./errors.js";
import { makeToolCallId, type EndpointProfile } from "./profiles.js";
import type { Random } from "./random.js";
import type { ScriptedReplyObject } from "./types.js";

type Delta = Record<string, unknown>;
type ToolDelta = Record<string, unknown> & { index: number };

/** What `streamCompletion` needs. */
export interface StreamInput {
  response: ServerResponse;
  completion: Completion;
  reply: ScriptedReplyObject;
  profile: EndpointProfile;
  random: Random;
  includeUsage: boolean;
}

/**
 * Argument pieces cut where decoders trip: right after every backslash (inside `\"`, `\n`, `\uXXXX`), after the
 * first two hex digits of a `\u` escape (inside a multi-byte character's escape, between surrogate halves), and at
 * most every 6 characters.
 */
export function awkwardPieces(text: string): string[] {
  const pieces: string[] = [];
  let piece = "";
  let cutAfter = -1;
  for (let i = 0; i < text.length; i++) {
    piece += text[i];
    if (text[i] === "\\" && text[i - 1] !== "\\") cutAfter = text[i + 1] === "u" ? i + 3 : -1;
    if (text[i] === "\\" || i === cutAfter || piece.length >= 6) {
      pieces.push(piece);
      piece = "";
    }
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

/** The tool-call deltas of one call, in order: a header (id, type, name) then argument pieces. */
function callDeltas(call: WireToolCall, index: number, input: StreamInput): ToolDelta[] {
  const { reply, profile, random, completion } = input;
  const chunking = reply.toolCallChunks ?? profile.toolCallChunks;
  const idField = (id: string | undefined) => (id === undefined ? {} : { id });
  if (chunking === "whole")
    return [{ index, ...idField(call.id), type: "function", function: { name: call.name, arguments: call.arguments } }];
  const name = reply.splitName ? call.name.slice(0, Math.ceil(call.name.length / 2)) : call.name;
  const header: ToolDelta =
    chunking === "awkward"
      ? { index, ...idField(call.id), type: "function", function: { name } }
      : { index, ...idField(call.id), type: "function", function: { name, arguments: "" } };
  const deltas = [header];
  if (reply.splitName) deltas.push({ index, function: { name: call.name.slice(name.length) } });
  const pieces = chunking === "awkward" ? awkwardPieces(call.arguments) : (call.arguments.match(/[\s\S]{1,8}/g) ?? []);
  for (const piece of pieces) {
    const again =
      profile.idOnEveryChunk === "same"
        ? idField(call.id)
        : profile.idOnEveryChunk === "fresh"
          ? idField(
              makeToolCallId(profile, random, {
                completionId: completion.id,
                served: 0,
                position: index,
                name: call.name,
              }),
            )
          : {};
    deltas.push({ index, ...again, function: { arguments: piece } });
  }
  return deltas;
}

/** Every tool-call delta of the completion; `interleaved` takes one delta of each call in turn. */
function toolDeltas(input: StreamInput): ToolDelta[] {
  const perCall = input.completion.toolCalls.map((call, index) => callDeltas(call, index, input));
  if ((input.reply.toolCallChunks ?? input.profile.toolCallChunks) !== "interleaved") return perCall.flat();
  const out: ToolDelta[] = [];
  for (let step = 0; perCall.some((deltas) => step < deltas.length); step++)
    for (const deltas of perCall) if (step < deltas.length) out.push(deltas[step]!);
  return out;
}

/** The SSE payloads of a completion: role, content word by word, tool deltas, finish, optional usage. */
export function streamPayloads(input: StreamInput): Array<Record<string, unknown>> {
  const { completion, includeUsage } = input;
  const withUsage = includeUsage && completion.usage !== undefined;
  const chunk = (delta: Delta, finishReason: string | null = null) => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: 0,
    model: completion.model,
    choices: [{ index: 0, delta, ...(finishReason === "omit" ? {} : { finish_reason: finishReason }), logprobs: null }],
    ...(withUsage ? { usage: null } : {}),
  });
  const payloads: Array<Record<string, unknown>> = [chunk({ role: "assistant", content: "" })];
  for (const token of completion.content.match(/\s*\S+\s*/g) ?? []) payloads.push(chunk({ content: token }));
  for (const delta of toolDeltas(input)) payloads.push(chunk({ tool_calls: [delta] }));
  payloads.push(chunk({}, completion.finishReason));
  if (withUsage)
    payloads.push({
      id: completion.id,
      object: "chat.completion.chunk",
      created: 0,
      model: completion.model,
      choices: [],
      usage: completion.usage,
    });
  return payloads;
}

const write = (response: ServerResponse, text: string) =>
  new Promise<void>((resolveWrite) => response.write(text, () => resolveWrite()));

/** Sends a completion as SSE, each event flushed before the next; a scripted `streamFailure` breaks it after `afterChunks` events (at most where `[DONE]` would be). */
export async function streamCompletion(input: StreamInput): Promise<void> {
  const { response, reply } = input;
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const failure = reply.streamFailure;
  const payloads = streamPayloads(input);
  for (let index = 0; index <= payloads.length; index++) {
    if (response.destroyed) return;
    const payload = payloads[index];
    if (failure && index === Math.min(failure.afterChunks, payloads.length)) {
      if (failure.kind === "stall") return;
      if (failure.kind === "drop") {
        response.socket?.destroy();
        return;
      }
      if (failure.kind === "error-event") {
        await write(response, `data: ${JSON.stringify(streamErrorPayload(failure))}\n\n`);
        response.end();
        return;
      }
      await write(response, `data: ${JSON.stringify(payload ?? payloads.at(-1)).slice(0, 40)}\n\n`);
    }
    if (payload) await write(response, `data: ${JSON.stringify(payload)}\n\n`);
  }
  response.end("data: [DONE]\n\n");
}
