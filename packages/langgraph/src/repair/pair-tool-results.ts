// Which tool result answers which tool call, by position: the shared reading of a history behind the repair and the
// inspection. Ids alone are not enough: a server that numbers calls per response (`call_0`) repeats them across the
// thread, and a reply stored under a repeated message id replaced an earlier AI message, orphaning its results.
import { isAIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";

/** One tool call of a history: the index of its AI message and its position among that message's calls. */
export interface CallRef {
  message: number;
  index: number;
}

/** How a history's tool results pair with its tool calls. */
export interface ToolResultPairing {
  /** Index of each tool result that answers a call -> that call. */
  answerOf: Map<number, CallRef>;
  /** `callKey(call)` -> index of the tool result answering it. */
  answerFor: Map<string, number>;
  /** Indexes of tool results that answer no call: none with their id before them, or only calls already answered. */
  orphans: number[];
  /** Calls with no answer after them. */
  unanswered: CallRef[];
  /** `callKey(call)` -> the id the call is sent under when its stored id is empty or repeats an earlier call's. */
  renamed: Map<string, string>;
}

/** The key of a call in the pairing's maps. */
export const callKey = (call: CallRef): string => `${call.message}:${call.index}`;

/**
 * The tool calls a request carries for a message: an AI message's parsed calls; without any, the provider's raw calls
 * kept in `additional_kwargs.tool_calls` (calls whose arguments did not parse: ChatOpenAI sends those); else none.
 */
export function toolCallsOf(message: BaseMessage): ReadonlyArray<{ id?: string; name: string }> {
  if (!isAIMessage(message)) return [];
  if (message.tool_calls?.length) return message.tool_calls;
  return rawToolCallsOf(message);
}

/** The raw (OpenAI format) calls of an AI message without parsed ones, as `{ id, name }`. */
export function rawToolCallsOf(message: BaseMessage): ReadonlyArray<{ id?: string; name: string }> {
  const raw = (message.additional_kwargs as { tool_calls?: unknown } | undefined)?.tool_calls;
  if (!Array.isArray(raw) || raw.length === 0) return [];
  return raw.map((entry: { id?: unknown; function?: { name?: unknown } } | undefined) => ({
    ...(typeof entry?.id === "string" ? { id: entry.id } : {}),
    name: typeof entry?.function?.name === "string" ? entry.function.name : "",
  }));
}

/**
 * Pairs tool results with tool calls by position: a result answers a call with its `tool_call_id` only when it comes
 * after that call's AI message and no earlier result took that call. A result in the block right after an AI message
 * answers that message's call first; one stored later (a persisted repair) answers the oldest open call with its id.
 */
export function pairToolResults(messages: readonly BaseMessage[]): ToolResultPairing {
  const open = new Map<string, CallRef[]>();
  const pairing: ToolResultPairing = {
    answerOf: new Map(),
    answerFor: new Map(),
    orphans: [],
    unanswered: [],
    renamed: new Map(),
  };
  const used = usedCallIds(messages);
  const seen = new Map<string, number>();
  let block = -1;
  for (let at = 0; at < messages.length; at += 1) {
    const message = messages[at]!;
    const calls = toolCallsOf(message);
    if (calls.length > 0) {
      block = at;
      calls.forEach((call, index) => {
        const ref = { message: at, index };
        const id = call.id ?? "";
        const queue = open.get(id);
        if (queue) queue.push(ref);
        else open.set(id, [ref]);
        const renamed = uniqueCallId(id, seen, used);
        if (renamed !== id) pairing.renamed.set(callKey(ref), renamed);
      });
    } else if (message.getType() === "tool") {
      const queue = open.get((message as ToolMessage).tool_call_id ?? "");
      const pick = queue
        ? Math.max(
            0,
            queue.findIndex((ref) => ref.message === block),
          )
        : -1;
      const ref = pick >= 0 ? queue!.splice(pick, 1)[0] : undefined;
      if (ref === undefined) pairing.orphans.push(at);
      else {
        pairing.answerOf.set(at, ref);
        pairing.answerFor.set(callKey(ref), at);
      }
    } else block = -1;
  }
  for (const queue of open.values()) pairing.unanswered.push(...queue);
  pairing.unanswered.sort((a, b) => a.message - b.message || a.index - b.index);
  return pairing;
}

/** Every non-empty tool-call id of the history (a new id must not take one of them). */
function usedCallIds(messages: readonly BaseMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of messages) for (const call of toolCallsOf(message)) if (call.id) used.add(call.id);
  return used;
}

/**
 * The id a call is sent under: its own the first time a non-empty id appears; else `<id>-skillgraph-<n>` (`call` for
 * an empty id), n counting that id's earlier calls. Stable while the history only grows, so requests keep their bytes.
 */
function uniqueCallId(id: string, seen: Map<string, number>, used: Set<string>): string {
  const count = seen.get(id) ?? 0;
  seen.set(id, count + 1);
  if (id !== "" && count === 0) return id;
  let n = count;
  let candidate = `${id || "call"}-skillgraph-${n}`;
  while (used.has(candidate)) candidate = `${id || "call"}-skillgraph-${++n}`;
  used.add(candidate);
  return candidate;
}
