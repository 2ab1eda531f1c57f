// What a model call needs to know about a thread's history (is it sound as sent, which tool-call ids it uses), kept
// per thread and extended with the messages appended since the last call instead of rescanned: a thread of n messages
// costs O(new messages) per call rather than O(n), once the previous messages are checked to be the same objects.
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { rawToolCallsOf } from "./pair-tool-results.js";

/** What a scan of a history found. */
export interface HistoryFacts {
  /**
   * True when `repairDanglingToolCalls` would change nothing: every tool result sits in the block right after the AI
   * message whose call it answers, every call is answered there exactly once, and call ids are non-empty and unique.
   */
  readonly wellFormed: boolean;
  /** Every tool-call id the history uses: the calls of its AI messages and the ids its tool results answer. */
  readonly usedIds: ReadonlySet<string>;
  /**
   * Positions of the tool results that carry a skillgraph artifact (`artifact.skillgraph`: the read_skill and
   * read_skill_file results a request rewrite fills in), in order: the rewrite visits these, not every message.
   */
  readonly skillResults: readonly number[];
}

/** A scan that can be resumed with the messages that follow. */
class HistoryScan implements HistoryFacts {
  /** The messages scanned, in order: a private copy (the caller's array may be replaced or changed in place). */
  readonly seen: BaseMessage[] = [];
  readonly usedIds = new Set<string>();
  readonly skillResults: number[] = [];
  /** Ids of the AI messages' calls. */
  private readonly callIds = new Set<string>();
  /** Calls of the last AI message not answered (yet) by the tool results right after it. */
  private readonly pending = new Set<string>();
  /** False from the first message that breaks the rule: no message appended later can mend it. */
  private sound = true;

  get wellFormed(): boolean {
    return this.sound && this.pending.size === 0;
  }

  /** Takes in the next message. */
  push(message: BaseMessage): void {
    this.seen.push(message);
    const type = message.getType();
    if (type === "tool") {
      const artifact = (message as ToolMessage).artifact as { skillgraph?: unknown } | undefined;
      if (artifact?.skillgraph !== undefined) this.skillResults.push(this.seen.length - 1);
      const answered = (message as ToolMessage).tool_call_id;
      this.usedIds.add(answered);
      if (!this.pending.delete(answered)) this.sound = false;
      return;
    }
    // Anything else closes the block of tool results of the previous AI message.
    if (this.pending.size > 0) this.sound = false;
    if (type !== "ai") return;
    const parsed = (message as AIMessage).tool_calls;
    for (const call of parsed ?? []) if (call.id) this.usedIds.add(call.id);
    const calls = parsed?.length ? parsed : rawToolCallsOf(message);
    for (const call of calls) {
      if (!call.id || this.callIds.has(call.id)) this.sound = false;
      else {
        this.callIds.add(call.id);
        this.pending.add(call.id);
      }
    }
  }
}

/** The facts of a history, scanned from its start (no reuse). */
export function scanHistory(messages: readonly BaseMessage[]): HistoryFacts {
  const scan = new HistoryScan();
  for (const message of messages) scan.push(message);
  return scan;
}

/**
 * History facts per thread, each kept with the messages it was computed over (keyed weakly by the thread's first
 * message, so a thread's scan goes with it): a history that starts with exactly those message objects is scanned
 * only from where the last one ended; any other history (a message removed, replaced or edited into a new object,
 * another thread) is scanned from its start.
 */
export class HistoryIndex {
  private readonly scans = new WeakMap<BaseMessage, HistoryScan>();

  /** The facts of `messages` (read-only: the next call may extend them). */
  of(messages: readonly BaseMessage[]): HistoryFacts {
    const first = messages[0];
    if (first === undefined) return scanHistory(messages);
    let scan = this.scans.get(first);
    if (!scan || !startsWith(messages, scan.seen)) {
      scan = new HistoryScan();
      this.scans.set(first, scan);
    }
    for (let at = scan.seen.length; at < messages.length; at++) scan.push(messages[at]!);
    return scan;
  }
}

function startsWith(messages: readonly BaseMessage[], prefix: readonly BaseMessage[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let at = 0; at < prefix.length; at++) if (messages[at] !== prefix[at]) return false;
  return true;
}
