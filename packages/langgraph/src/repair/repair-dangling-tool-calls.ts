import { isAIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

/** A history with every tool call answered right after its AI message, and the cancellation answers that were added. */
export interface RepairedHistory {
  /** The repaired history; the input array itself when nothing needed repair. */
  messages: BaseMessage[];
  /** ToolMessages added for calls that never got an answer (to persist: their ids are stable per call). */
  repairs: ToolMessage[];
}

/** The id of the cancellation ToolMessage for `toolCallId` (stable, so persisting it twice replaces, never duplicates). */
export function cancelledToolMessageId(toolCallId: string): string {
  return `skillgraph-cancelled-${toolCallId}`;
}

/**
 * Repairs dangling tool calls (Ctrl-C or a crash during a tool call leaves an AI message whose calls have no
 * ToolMessage, which providers reject): each unanswered call gets an error ToolMessage saying it was cancelled, and an
 * answer stored later in the history (e.g. a persisted repair) is moved to right after its AI message. A history
 * that needs nothing is returned as is (same array), so the normal request keeps its bytes.
 * @param messages the thread's messages, oldest first
 * @example
 * const { messages, repairs } = repairDanglingToolCalls(state.messages);
 * if (repairs.length > 0) await graph.updateState(config, { messages: repairs });
 */
export function repairDanglingToolCalls(messages: readonly BaseMessage[]): RepairedHistory {
  if (isWellFormed(messages)) return { messages: messages as BaseMessage[], repairs: [] };
  const answers = firstAnswers(messages);
  const repair: Repair = { out: [], placed: new Set(), repairs: [], moved: false };
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (repair.placed.has(message)) continue;
    repair.out.push(message);
    if (!isAIMessage(message) || !message.tool_calls?.length) continue;
    const covered = new Set<string>();
    while (index + 1 < messages.length && messages[index + 1]!.getType() === "tool") {
      const next = messages[++index] as ToolMessage;
      if (repair.placed.has(next)) continue;
      place(repair, next);
      covered.add(next.tool_call_id);
    }
    answerRemainingCalls(repair, message.tool_calls, covered, answers);
  }
  const { out, repairs, moved } = repair;
  return moved || repairs.length > 0 ? { messages: out, repairs } : { messages: messages as BaseMessage[], repairs };
}

/**
 * True when every tool call is answered by the tool messages right after its AI message (the repair would then move
 * and add nothing): the common case, checked in one pass without building the answer map the repair needs.
 */
function isWellFormed(messages: readonly BaseMessage[]): boolean {
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (!isAIMessage(message) || !message.tool_calls?.length) continue;
    const unanswered = new Set(message.tool_calls.map((call) => call.id ?? ""));
    while (index + 1 < messages.length && messages[index + 1]!.getType() === "tool")
      unanswered.delete((messages[++index] as ToolMessage).tool_call_id);
    if (unanswered.size > 0) return false;
  }
  return true;
}

/** The repaired history being built. */
interface Repair {
  out: BaseMessage[];
  placed: Set<BaseMessage>;
  repairs: ToolMessage[];
  moved: boolean;
}

/** The first answer of each tool call id. */
function firstAnswers(messages: readonly BaseMessage[]): Map<string, BaseMessage> {
  const answers = new Map<string, BaseMessage>();
  for (const message of messages) {
    if (message.getType() !== "tool") continue;
    const id = (message as ToolMessage).tool_call_id;
    if (!answers.has(id)) answers.set(id, message);
  }
  return answers;
}

function place(repair: Repair, message: BaseMessage): void {
  repair.out.push(message);
  repair.placed.add(message);
}

/** Answers each call not yet covered: its later answer moved up to here, or a cancellation. */
function answerRemainingCalls(
  repair: Repair,
  calls: ReadonlyArray<{ id?: string; name: string }>,
  covered: Set<string>,
  answers: ReadonlyMap<string, BaseMessage>,
): void {
  for (const call of calls) {
    const id = call.id ?? "";
    if (covered.has(id)) continue;
    covered.add(id);
    const later = answers.get(id);
    if (later && !repair.placed.has(later)) {
      place(repair, later);
      repair.moved = true;
    } else if (!later) {
      const cancelled = cancelledToolMessage(call.name, id);
      repair.out.push(cancelled);
      repair.repairs.push(cancelled);
    }
  }
}

function cancelledToolMessage(name: string, toolCallId: string): ToolMessage {
  return new ToolMessage({
    id: cancelledToolMessageId(toolCallId),
    name,
    tool_call_id: toolCallId,
    status: "error",
    content: `Tool call '${name}' was cancelled: the run stopped before it returned (interrupted or crashed), so its result is unknown. Call it again if it is still needed.`,
  });
}
