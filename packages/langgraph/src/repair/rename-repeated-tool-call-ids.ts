import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { callKey, pairToolResults, toolCallsOf } from "./pair-tool-results.js";
import { aiMessageWithCallIds, toolMessageWithCallId } from "./renamed-messages.js";

/** A tool call given a new id in storage. */
export interface RenamedToolCall {
  /** Index of the call's AI message. */
  index: number;
  callIndex: number;
  from: string;
  to: string;
}

/** A repeated or empty tool-call id left as stored (every request still sends it under a unique id), and why. */
export interface KeptToolCallId {
  index: number;
  callIndex: number;
  toolCallId: string;
  reason: string;
}

/** The writes that give repeated and empty tool-call ids unique ids in storage. */
export interface ToolCallIdRenaming {
  /** Copies to write: each keeps its message id, so a messages reducer replaces the original in place. */
  messages: BaseMessage[];
  /** The history once they are written (same length and order as the input). */
  history: BaseMessage[];
  renamed: RenamedToolCall[];
  kept: KeptToolCallId[];
}

/**
 * Plans the rewrite of a stored history's repeated and empty tool-call ids: each such call gets the id requests
 * already send it under (`<id>-skillgraph-<n>`), in its AI message and in the result answering it (paired by
 * position). Messages are replaced by their id, never removed, so a call is renamed only when its AI message and its
 * result each have an id no other message shares; otherwise it is kept, with the reason.
 * @param messages the thread's messages, oldest first
 * @example
 * const renaming = renameRepeatedToolCallIds(state.messages);
 * if (renaming.messages.length > 0) await graph.updateState(config, { messages: renaming.messages });
 */
export function renameRepeatedToolCallIds(messages: readonly BaseMessage[]): ToolCallIdRenaming {
  const pairing = pairToolResults(messages);
  const history = messages.slice();
  const planned: ToolCallIdRenaming = { messages: [], history, renamed: [], kept: [] };
  if (pairing.renamed.size === 0) return planned;
  const replaceable = replaceabilityOf(messages);
  const newIds = new Map<number, Array<string | undefined>>();
  const writes = new Map<number, BaseMessage>();
  for (const [key, to] of pairing.renamed) {
    const [at, index] = key.split(":").map(Number) as [number, number];
    const from = toolCallsOf(messages[at]!)[index]!.id ?? "";
    const answer = pairing.answerFor.get(callKey({ message: at, index }));
    const reason =
      replaceable(at, "its AI message") ?? (answer === undefined ? undefined : replaceable(answer, "its result"));
    if (reason !== undefined) {
      planned.kept.push({ index: at, callIndex: index, toolCallId: from, reason });
      continue;
    }
    const ids = newIds.get(at) ?? [];
    ids[index] = to;
    newIds.set(at, ids);
    if (answer !== undefined) writes.set(answer, toolMessageWithCallId(messages[answer] as ToolMessage, to));
    planned.renamed.push({ index: at, callIndex: index, from, to });
  }
  for (const [at, ids] of newIds) writes.set(at, aiMessageWithCallIds(messages[at] as AIMessage, ids, "rename"));
  for (const at of [...writes.keys()].sort((a, b) => a - b)) {
    history[at] = writes.get(at)!;
    planned.messages.push(writes.get(at)!);
  }
  return planned;
}

/** Why the message at an index cannot be replaced in place (undefined when it can): no id, or a shared one. */
function replaceabilityOf(messages: readonly BaseMessage[]) {
  const counts = new Map<string, number>();
  for (const message of messages) if (message.id) counts.set(message.id, (counts.get(message.id) ?? 0) + 1);
  return (at: number, what: string): string | undefined => {
    const id = messages[at]!.id;
    if (!id) return `${what} (message ${at}) has no message id: a messages reducer replaces a message only by its id`;
    if (counts.get(id)! > 1) return `${what} (message ${at}) shares its message id '${id}' with another message`;
    return undefined;
  };
}
