// Where a turn keyed by its input message id stands in a thread: not there, stopped part-way, waiting on an approval,
// answered, or ended without an answer. What a retry does depends on it (runTurnOnce).
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";

/** The part of a compiled graph (a StateGraph or createAgent's agent) a turn is run and looked up through. */
export interface TurnGraph {
  /** The thread's state: its values, the nodes still to run and the tasks of the step in progress. */
  getState(config: RunnableConfig): Promise<{
    values: unknown;
    next?: readonly string[];
    tasks?: ReadonlyArray<{ interrupts?: readonly unknown[] }>;
  }>;
  /** Runs the graph on `input` (`null` continues the thread's stopped run). */
  invoke(input: unknown, config: RunnableConfig): Promise<unknown>;
}

/** Where a turn stands. */
export type TurnStatus =
  /** No message of the thread has the turn's id: the turn never reached the thread. */
  | { state: "new" }
  /** The turn is in the thread and its run stopped part-way (a crash, a lost connection): `next` nodes still to run. */
  | { state: "unfinished"; next: readonly string[] }
  /** The run waits on an interrupt (an approval): answer it with `Command({ resume })`, not by retrying. */
  | { state: "waiting"; interrupts: readonly unknown[] }
  /** The turn has its answer: the model's last reply after the input, with text and no calls. */
  | { state: "answered"; reply: BaseMessage }
  /** The run finished without an answer (an empty reply, calls left unanswered). */
  | { state: "unanswered" };

interface MessageView {
  id?: string;
  getType?: () => string;
  content?: unknown;
  tool_calls?: unknown[];
}

/**
 * Where the turn whose input message has id `messageId` stands in the thread of `config`, read without running
 * anything: "was this turn answered?".
 * @example
 * const status = await turnStatus(agent, { configurable: { thread_id: "t1" } }, "user-msg-42");
 * if (status.state === "answered") return status.reply;
 */
export async function turnStatus(graph: TurnGraph, config: RunnableConfig, messageId: string): Promise<TurnStatus> {
  return statusInSnapshot(await graph.getState(config), messageId);
}

/** Where the turn whose input message has id `messageId` stands in `snapshot` (a graph's state, as getState gives it). */
export function statusInSnapshot(snapshot: Awaited<ReturnType<TurnGraph["getState"]>>, messageId: string): TurnStatus {
  const messages = ((snapshot.values as { messages?: unknown } | undefined)?.messages ?? []) as MessageView[];
  const at = lastIndexWithId(messages, messageId);
  if (at < 0) return { state: "new" };
  const end = nextHumanIndex(messages, at);
  if (end === messages.length) {
    // the latest turn: its run may still be paused or stopped part-way
    const interrupts = (snapshot.tasks ?? []).flatMap((task) => task.interrupts ?? []);
    if (interrupts.length > 0) return { state: "waiting", interrupts };
    // A step cut short keeps the writes of the tasks that finished: they are tasks of the snapshot without being in
    // `next` (LangGraph lists only tasks still to run there), and the step is not over until they are committed.
    const pending = (snapshot.tasks ?? []).map((task) => (task as { name?: string }).name ?? "");
    if ((snapshot.next ?? []).length > 0 || pending.length > 0)
      return { state: "unfinished", next: snapshot.next?.length ? snapshot.next : pending };
  }
  const last = messages[end - 1]!;
  const answered = end - 1 > at && last.getType?.() === "ai" && (last.tool_calls ?? []).length === 0 && hasText(last);
  return answered ? { state: "answered", reply: last as unknown as BaseMessage } : { state: "unanswered" };
}

/** The index of the first user message after `at` (the next turn's input), or the length when there is none. */
function nextHumanIndex(messages: readonly MessageView[], at: number): number {
  for (let index = at + 1; index < messages.length; index += 1)
    if (messages[index]!.getType?.() === "human") return index;
  return messages.length;
}

function lastIndexWithId(messages: readonly MessageView[], id: string): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) if (messages[index]!.id === id) return index;
  return -1;
}

function hasText(message: MessageView): boolean {
  const { content } = message;
  if (typeof content === "string") return content.trim() !== "";
  return Array.isArray(content) && content.some((part) => (part as { type?: string }).type === "text");
}
