// The tool calls of a model reply as the endpoint streamed them. LangChain joins streamed call deltas by id as well as
// by index: a delta without an id, with an empty id, or with a fresh id on every delta (older vLLM) leaves the call in
// pieces, or in `invalid_tool_calls` with "Malformed args." although its arguments are fine, and a name split over
// two deltas keeps only its second half. The wire protocol keys a call's deltas by `index`: joined that way, the call
// is what the endpoint sent.
import type { AIMessage, InvalidToolCall, ToolCall } from "@langchain/core/messages";

/** The reply's calls: those whose arguments are a JSON object, and those whose arguments are not (with the parse error). */
export interface ReplyCalls {
  valid: ToolCall[];
  invalid: InvalidToolCall[];
}

interface CallDelta {
  name?: string;
  args?: string;
  id?: string;
  index?: number;
}

/** The calls of `reply`: rebuilt from its streamed deltas when it has them, else as the model class parsed them. */
export function replyToolCalls(reply: AIMessage): ReplyCalls {
  const deltas = (reply as { tool_call_chunks?: CallDelta[] }).tool_call_chunks;
  if (!Array.isArray(deltas) || deltas.length === 0)
    return { valid: reply.tool_calls ?? [], invalid: reply.invalid_tool_calls ?? [] };
  const calls: ReplyCalls = { valid: [], invalid: [] };
  for (const joined of joinByIndex(deltas)) {
    const parsed = parseArguments(joined.args);
    if (parsed.ok) calls.valid.push({ name: joined.name, args: parsed.value, id: joined.id, type: "tool_call" });
    else
      calls.invalid.push({
        name: joined.name,
        args: joined.args,
        id: joined.id,
        error: parsed.error,
        type: "invalid_tool_call",
      });
  }
  return calls;
}

/** Deltas joined per call: by `index` (the protocol's key), or by id, or on their own, in order of first appearance. */
function joinByIndex(deltas: readonly CallDelta[]): Array<{ name: string; args: string; id?: string }> {
  const joined = new Map<string, { name: string; args: string; id?: string }>();
  deltas.forEach((delta, position) => {
    const key = typeof delta.index === "number" ? `i${delta.index}` : delta.id ? `d${delta.id}` : `p${position}`;
    const call = joined.get(key) ?? { name: "", args: "" };
    // A name is sent once, or repeated whole on later deltas, or split over deltas: never append a repeat.
    if (delta.name && !call.name.endsWith(delta.name)) call.name += delta.name;
    call.args += delta.args ?? "";
    if (!call.id && delta.id) call.id = delta.id;
    joined.set(key, call);
  });
  return [...joined.values()];
}

function parseArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, error: "the arguments are JSON but not an object" };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
