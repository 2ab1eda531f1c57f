import { isAIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { pairToolResults, toolCallsOf, type ToolResultPairing } from "./pair-tool-results.js";

/** What is wrong with one part of a stored history. */
export type HistoryProblemCode =
  | "unanswered-call"
  | "orphan-result"
  | "duplicate-tool-call-id"
  | "empty-tool-call-id"
  | "invalid-tool-call"
  | "duplicate-message-id"
  | "empty-ai-message";

/** One problem of a stored history, with the messages and ids involved. */
export interface HistoryProblem {
  code: HistoryProblemCode;
  /** Index (oldest first, from 0) of the message the problem is about. */
  index: number;
  /** `error`: a strict server rejects the history as stored; `warning`: accepted, but a sign of damage. */
  severity: "error" | "warning";
  /** True when `repairDanglingToolCalls` keeps the problem out of every model request (the stored history keeps it). */
  fixedInRequests: boolean;
  /** What is wrong, in a sentence. */
  detail: string;
  messageId?: string;
  toolCallId?: string;
  /** The call's position among its AI message's calls. */
  callIndex?: number;
  /** The earlier message with the same message id, or the AI message of the earlier call with the same call id. */
  relatedIndex?: number;
}

/** What `inspectHistory` returns: the problems, oldest message first, and whether there are any. */
export interface HistoryInspection {
  problems: HistoryProblem[];
  /** True when there is no problem at all. */
  sound: boolean;
}

/**
 * Reads a stored history for damage without changing it: tool calls with no answer, tool results that answer no call
 * (paired by position, as `repairDanglingToolCalls` pairs them), duplicate and empty tool-call ids, tool calls whose
 * arguments did not parse, messages sharing an id, and AI messages with neither text nor calls.
 * @param messages the thread's messages, oldest first
 * @example
 * const { problems } = inspectHistory(state.messages);
 * for (const p of problems) console.log(`${p.code} at message ${p.index}: ${p.detail}`);
 */
export function inspectHistory(messages: readonly BaseMessage[]): HistoryInspection {
  const pairing = pairToolResults(messages);
  const problems = [
    ...callProblems(messages, pairing),
    ...orphanProblems(messages, pairing),
    ...messageProblems(messages),
  ].sort((a, b) => a.index - b.index || (a.callIndex ?? -1) - (b.callIndex ?? -1));
  return { problems, sound: problems.length === 0 };
}

/** Unanswered calls, and calls whose id is empty or repeats an earlier call's. */
function callProblems(messages: readonly BaseMessage[], pairing: ToolResultPairing): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  const firstCall = new Map<string, number>();
  const idOf = (at: number) => (messages[at]!.id ? { messageId: messages[at]!.id! } : {});
  for (const { message: at, index } of pairing.unanswered) {
    const call = toolCallsOf(messages[at]!)[index]!;
    problems.push({
      code: "unanswered-call",
      index: at,
      callIndex: index,
      severity: "error",
      fixedInRequests: true,
      detail: `tool call '${call.name}' (${call.id || "no id"}) has no result after it`,
      ...idOf(at),
      toolCallId: call.id ?? "",
    });
  }
  messages.forEach((message, at) =>
    toolCallsOf(message).forEach((call, index) => {
      const id = call.id ?? "";
      const base = { index: at, callIndex: index, severity: "error" as const, fixedInRequests: true, ...idOf(at) };
      if (id === "")
        problems.push({
          ...base,
          code: "empty-tool-call-id",
          toolCallId: "",
          detail: `tool call '${call.name}' has an empty id`,
        });
      else if (firstCall.has(id))
        problems.push({
          ...base,
          code: "duplicate-tool-call-id",
          toolCallId: id,
          relatedIndex: firstCall.get(id)!,
          detail: `tool call id '${id}' was already used by the call in message ${firstCall.get(id)}`,
        });
      else firstCall.set(id, at);
    }),
  );
  return problems;
}

/** Tool results that answer no call before them (or only calls already answered). */
function orphanProblems(messages: readonly BaseMessage[], pairing: ToolResultPairing): HistoryProblem[] {
  return pairing.orphans.map((at) => {
    const message = messages[at] as ToolMessage;
    return {
      code: "orphan-result" as const,
      index: at,
      severity: "error" as const,
      fixedInRequests: true,
      detail: `tool result for '${message.tool_call_id || "no id"}' answers no call before it that is still open`,
      ...(message.id ? { messageId: message.id } : {}),
      toolCallId: message.tool_call_id ?? "",
    };
  });
}

/** Messages sharing an id, AI messages with neither text nor calls, and calls whose arguments did not parse. */
function messageProblems(messages: readonly BaseMessage[]): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  const firstWithId = new Map<string, number>();
  messages.forEach((message, at) => {
    const id = message.id;
    if (id && firstWithId.has(id))
      problems.push({
        code: "duplicate-message-id",
        index: at,
        severity: "warning",
        fixedInRequests: false,
        messageId: id,
        relatedIndex: firstWithId.get(id)!,
        detail: `message id '${id}' is also the id of message ${firstWithId.get(id)} (a later write with it replaces one)`,
      });
    else if (id) firstWithId.set(id, at);
    if (!isAIMessage(message)) return;
    const invalid = message.invalid_tool_calls ?? [];
    const base = { index: at, ...(id ? { messageId: id } : {}) };
    invalid.forEach((call, index) =>
      problems.push({
        ...base,
        code: "invalid-tool-call",
        callIndex: index,
        severity: "warning",
        fixedInRequests: false,
        toolCallId: call.id ?? "",
        detail: `tool call '${call.name ?? "?"}' has arguments that did not parse${call.error ? ` (${call.error})` : ""}: it never ran`,
      }),
    );
    if (invalid.length === 0 && !message.tool_calls?.length && message.text.trim() === "")
      problems.push({
        ...base,
        code: "empty-ai-message",
        severity: "warning",
        fixedInRequests: false,
        detail: "AI message with neither text nor tool calls",
      });
  });
  return problems;
}
