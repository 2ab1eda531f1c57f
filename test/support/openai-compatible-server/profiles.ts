import { z } from "zod";
import { ALNUM, HEX, LOWER_ALNUM, type Random } from "./random.js";

/** How completion ids (`chatcmpl-…`) are made. */
export const COMPLETION_ID_MODES = [
  "counter",
  "ollama",
  "fixed",
  "unique",
  "uuid",
  "chatcmpl-uuid",
  "chatcmpl-hex",
] as const;
/** How tool-call ids are made. */
export const TOOL_CALL_ID_MODES = [
  "counter",
  "unique",
  "per-response",
  "empty",
  "missing",
  "shared",
  "nine-char",
  "ollama",
  "deepseek",
  "vllm",
  "kimi",
] as const;
/** How a streamed tool call's deltas are cut (see stream.ts). */
export const TOOL_CALL_CHUNKINGS = ["pieces", "whole", "awkward", "interleaved"] as const;
/** Body shapes of HTTP errors (see errors.ts). */
export const ERROR_SHAPES = ["openai", "vllm", "llama-cpp", "fastapi", "text", "empty"] as const;

/** An endpoint profile: how one real server makes ids and streams, at its worst. Every field has today's behaviour as default. */
export const endpointProfileSchema = z
  .object({
    completionIds: z.enum(COMPLETION_ID_MODES).default("counter"),
    toolCallIds: z.enum(TOOL_CALL_ID_MODES).default("counter"),
    /** The id of every completion with `completionIds: "fixed"`. */
    fixedCompletionId: z.string().default("chatcmpl-fixed"),
    toolCallChunks: z.enum(TOOL_CALL_CHUNKINGS).default("pieces"),
    /** Tool-call deltas after the first carry an id again: `same` (the call's id) or `fresh` (a new id of the profile's scheme each time: random for the random schemes). */
    idOnEveryChunk: z.enum(["no", "same", "fresh"]).default("no"),
    /** No usage anywhere, even when `stream_options.include_usage` asks for it. */
    omitUsage: z.boolean().default(false),
    /** Refuse (400) a request whose history repeats a tool-call id, as api.deepseek.com does. */
    rejectDuplicateToolCallIds: z.boolean().default(false),
    /** Body shape of scripted HTTP errors that name none. */
    errorShape: z.enum(ERROR_SHAPES).default("openai"),
  })
  .strict();

/** A profile as callers write it (every field optional). */
export type EndpointProfileInput = z.input<typeof endpointProfileSchema>;
/** A profile with every field filled in. */
export type EndpointProfile = z.output<typeof endpointProfileSchema>;

/**
 * Named presets, each standing for a real server's behaviour (source in the comment).
 * Random parts come from the server's seedable PRNG (`seed`).
 */
export const PROFILE_PRESETS = {
  /** This server's own scheme: `chatcmpl-<n>` and `call_<n>_<position>`, counted per process from 1. */
  default: {},
  /** api.openai.com: `chatcmpl-` + 29 letters/digits, `call_` + 24 (e.g. `chatcmpl-BZgkS9g5fmfDWr6abBzaXKbabTYAL`, `call_Dcuer5y2RowXl7Ig47gCS9Ft`, quoted in vllm-project/vllm#18412). */
  openai: { completionIds: "unique", toolCallIds: "unique" },
  /**
   * Ollama's /v1 endpoint: `chatcmpl-<rand.Intn(999)>` (ollama/ollama middleware/openai.go: 999 values, so two
   * completions of one thread share an id after a few dozen turns), tool calls `call_` + 8 of [a-z0-9]
   * (server/routes.go `toolCallId()`), each tool call sent whole in one delta (openai/openai.go `ToChunk`).
   */
  ollama: { completionIds: "ollama", toolCallIds: "ollama", toolCallChunks: "whole" },
  /** llama.cpp's llama-server before early 2025 (build 4761, ggml-org/llama.cpp#11992): tool calls without any `id`. */
  "llama-cpp-old": { completionIds: "unique", toolCallIds: "missing" },
  /** LM Studio 0.3.21 (lmstudio-ai/lmstudio-bug-tracker#830): a tool call with `"id": ""` (its usual ids are 9-digit numbers). */
  "lm-studio": { completionIds: "unique", toolCallIds: "empty" },
  /**
   * api.deepseek.com: completion ids are bare uuids, tool calls `call_<2-digit position>_<20 letters/digits + 4 digits>`
   * (captured streams, e.g. `call_00_JKplDF8t8DbqkZaGChDX1881`): unique, but the API refuses a history that repeats
   * one: 400 "Duplicate value for 'tool_call_id' of … in message[N]" (craft-ai-agents/craft-agents-oss#630).
   */
  deepseek: { completionIds: "uuid", toolCallIds: "deepseek", rejectDuplicateToolCallIds: true },
  /** Xinference (xorbitsai/inference#4237): every tool call of a response has the id `call_<the completion's uuid>`. */
  xinference: { completionIds: "chatcmpl-uuid", toolCallIds: "shared" },
  /**
   * vLLM's OpenAI server: `chatcmpl-<uuid hex>`, tool calls `chatcmpl-tool-<uuid hex>`, errors as
   * `{"object":"error","message",...}`; older releases put a new `chatcmpl-tool-…` id on every streamed tool delta
   * (`DeltaToolCall.id` had a `default_factory`), which clients concatenate.
   */
  vllm: { completionIds: "chatcmpl-hex", toolCallIds: "vllm", idOnEveryChunk: "fresh", errorShape: "vllm" },
  /** Kimi K2/K3 through vLLM or Fireworks: `functions.<name>:<position>`, restarting at 0 every turn (vllm-project/vllm#50295, fw-ai/fireconnect#16). */
  kimi: { completionIds: "chatcmpl-hex", toolCallIds: "kimi", errorShape: "vllm" },
  /** Mistral: tool-call ids are exactly 9 letters/digits (its chat template refuses others: ggml-org/llama.cpp#26359). */
  mistral: { completionIds: "chatcmpl-hex", toolCallIds: "nine-char" },
  /** A server that gives every completion the same id (`chatcmpl-fixed`), the worst case of Ollama's 999 values. */
  fixed: { completionIds: "fixed", toolCallIds: "unique" },
} as const satisfies Record<string, EndpointProfileInput>;

/** A preset's name. */
export type ProfilePresetName = keyof typeof PROFILE_PRESETS;

/** The profile for a preset name or a partial profile (validated); undefined is `default`. */
export function resolveProfile(profile: ProfilePresetName | EndpointProfileInput | undefined): EndpointProfile {
  if (typeof profile === "string") {
    if (!Object.hasOwn(PROFILE_PRESETS, profile))
      throw new TypeError(
        `openai-compatible-server: unknown profile "${profile}" (known: ${Object.keys(PROFILE_PRESETS).join(", ")})`,
      );
    return endpointProfileSchema.parse(PROFILE_PRESETS[profile]);
  }
  return endpointProfileSchema.parse(profile ?? {});
}

const uuid = (random: Random) => {
  const hex = random.pick(HEX, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The completion id of the `served`-th completion (1-based) of this process. */
export function makeCompletionId(profile: EndpointProfile, random: Random, served: number): string {
  switch (profile.completionIds) {
    case "counter":
      return `chatcmpl-${served}`;
    case "ollama":
      return `chatcmpl-${random.int(999)}`;
    case "fixed":
      return profile.fixedCompletionId;
    case "unique":
      return `chatcmpl-${random.pick(ALNUM, 29)}`;
    case "uuid":
      return uuid(random);
    case "chatcmpl-uuid":
      return `chatcmpl-${uuid(random)}`;
    case "chatcmpl-hex":
      return `chatcmpl-${random.pick(HEX, 32)}`;
  }
}

/** What a tool-call id may depend on. */
export interface ToolCallIdContext {
  completionId: string;
  /** 1-based count of completions served by this process. */
  served: number;
  position: number;
  name: string;
}

/** A tool call's id under the profile; undefined means the `id` field is left out. */
export function makeToolCallId(profile: EndpointProfile, random: Random, call: ToolCallIdContext): string | undefined {
  switch (profile.toolCallIds) {
    case "counter":
      return `call_${call.served}_${call.position + 1}`;
    case "unique":
      return `call_${random.pick(ALNUM, 24)}`;
    case "per-response":
      return `call_${call.position}`;
    case "empty":
      return "";
    case "missing":
      return undefined;
    case "shared":
      return `call_${call.completionId.replace(/^chatcmpl-/, "")}`;
    case "nine-char":
      return random.pick(ALNUM, 9);
    case "ollama":
      return `call_${random.pick(LOWER_ALNUM, 8)}`;
    case "deepseek":
      return `call_${String(call.position).padStart(2, "0")}_${random.pick(ALNUM, 20)}${random.pick("0123456789", 4)}`;
    case "vllm":
      return `chatcmpl-tool-${random.pick(HEX, 32)}`;
    case "kimi":
      return `functions.${call.name}:${call.position}`;
  }
}
