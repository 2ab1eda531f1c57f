import { ToolMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { scanHistory } from "./history-index.js";
import { callKey, pairToolResults, toolCallsOf, type ToolResultPairing } from "./pair-tool-results.js";
import { aiMessageWithCallIds, toolMessageWithCallId } from "./renamed-messages.js";

/** The history as the model is sent it, and the cancellation answers that were added. */
export interface RepairedHistory {
  /** The repaired history; the input array itself when nothing needed repair. */
  messages: BaseMessage[];
  /** ToolMessages added for calls that never got an answer (to persist: their ids are stable per call). */
  repairs: ToolMessage[];
  /** Indexes (in the input) of tool results left out of `messages` because they answer no call; state keeps them. */
  orphans: number[];
}

/**
 * The id of the cancellation ToolMessage for a call (stable, so persisting it twice replaces, never duplicates).
 * @param toolCallId the id the call is sent under: unique in the thread, see `repairDanglingToolCalls`
 */
export function cancelledToolMessageId(toolCallId: string): string {
  return `skillgraph-cancelled-${toolCallId}`;
}

/**
 * Makes a history a model accepts. Tool results pair with calls by position: a result answers a call only when it
 * comes after the call's AI message and no earlier result took that call (a call whose id repeats an earlier, answered
 * one is not answered by that earlier result). Then each answer is placed right after its AI message, results that
 * answer no call are left out (they stay in state), each unanswered call (Ctrl-C, a crash) gets an error ToolMessage
 * saying it was cancelled, and a call whose id is empty or repeats an earlier call's is sent under a new id
 * (`<id>-skillgraph-<n>`, stable while the thread grows) with its answer. An AI message without parsed calls counts
 * the raw ones a request still carries (`additional_kwargs.tool_calls`: arguments that did not parse); unanswered,
 * such a call gets a result saying it was not run. A sound history is returned as is (the
 * same array), so the normal request keeps its bytes; the check is one pass.
 * @param messages the thread's messages, oldest first
 * @example
 * const { messages, repairs } = repairDanglingToolCalls(state.messages);
 * if (repairs.length > 0) await graph.updateState(config, { messages: repairs });
 */
export function repairDanglingToolCalls(messages: readonly BaseMessage[]): RepairedHistory {
  if (scanHistory(messages).wellFormed) return { messages: messages as BaseMessage[], repairs: [], orphans: [] };
  const pairing = pairToolResults(messages);
  const out: BaseMessage[] = [];
  const repairs: ToolMessage[] = [];
  messages.forEach((message, at) => {
    if (message.getType() === "tool") return; // placed after its call below, or an orphan left out
    const calls = toolCallsOf(message);
    if (calls.length === 0) {
      out.push(message);
      return;
    }
    out.push(sentAIMessage(message as AIMessage, at, pairing));
    calls.forEach((call, index) => {
      const key = callKey({ message: at, index });
      const sentId = pairing.renamed.get(key) ?? call.id ?? "";
      const answer = pairing.answerFor.get(key);
      if (answer !== undefined) {
        out.push(toolMessageWithCallId(messages[answer] as ToolMessage, sentId));
        return;
      }
      const cancelled = cancelledToolMessage(call, sentId, unparsedError(message as AIMessage, call.id));
      repairs.push(cancelled);
      out.push(toolMessageWithCallId(cancelled, sentId));
    });
  });
  return { messages: out, repairs, orphans: pairing.orphans };
}

/** The AI message as sent: itself, or a copy whose empty or repeated call ids are replaced. */
function sentAIMessage(message: AIMessage, at: number, pairing: ToolResultPairing): AIMessage {
  const ids = toolCallsOf(message).map((_, index) => pairing.renamed.get(callKey({ message: at, index })));
  return ids.some((id) => id !== undefined) ? aiMessageWithCallIds(message, ids, "drop") : message;
}

/** Why a call never ran when its arguments did not parse (the invalid call's error), else undefined. */
function unparsedError(message: AIMessage, id: string | undefined): string | undefined {
  if (message.tool_calls?.length) return undefined;
  const invalid = (message.invalid_tool_calls ?? []).find((call) => call.id === id);
  return invalid ? (invalid.error ?? "arguments did not parse") : undefined;
}

/** The stored answer of an unanswered call: it answers the call's stored id; its message id comes from the sent id. */
function cancelledToolMessage(call: { id?: string; name: string }, sentId: string, unparsed: string | undefined) {
  const { name } = call;
  return new ToolMessage({
    id: cancelledToolMessageId(sentId),
    name,
    tool_call_id: call.id ?? "",
    status: "error",
    content:
      unparsed === undefined
        ? `Tool call '${name}' was cancelled: the run stopped before it returned (interrupted or crashed), so its result is unknown. Call it again if it is still needed.`
        : `Tool call '${name}' was not run: its arguments did not parse (${unparsed}). Call it again with valid JSON arguments if it is still needed.`,
  });
}
