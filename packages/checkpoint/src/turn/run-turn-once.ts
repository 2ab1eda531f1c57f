import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { InvalidOptionsError } from "../internal/core.js";
import { currentGate, GateCallbackHandler, withHandler } from "./priority-gate.js";
import { readingOnce } from "./read-once-saver.js";
import { statusInSnapshot, turnStatus, type TurnGraph, type TurnStatus } from "./turn-status.js";

/** What `runTurnOnce` did and the state the turn ended in. */
export interface TurnOnceResult {
  /** `ran`: a new turn (or a retry of one that ended without an answer) ran; `continued`: a run that stopped part-way went on from its last checkpoint; `stored`: the turn was answered already, nothing ran; `waiting`: it waits on an interrupt. */
  outcome: "ran" | "continued" | "stored" | "waiting";
  status: TurnStatus;
}

/**
 * Runs a user turn at most once, keyed by its input message's id: a retry of a turn whose answer is stored returns it
 * without running anything, a retry of a run that stopped part-way (the process died, the connection was lost after a
 * write) continues it from its last checkpoint (LangGraph replays the writes it kept), and only a turn the thread has
 * not seen, or one that ended without an answer, runs with its input; a run that ends with the answer in its output is
 * not read back, and the thread's latest checkpoint is read from the database once per turn (the status lookup and the
 * run share it, through a saver lent in the config). Clients retry with the same message id; two
 * processes must not serve one thread at once (hold a session lease).
 * @param graph a compiled graph with a checkpointer (a StateGraph, or createAgent's agent)
 * @param input the turn's input; its `messages[0].id` keys the turn
 * @param config the run's config, with `configurable.thread_id`
 * @example
 * const { status } = await runTurnOnce(agent, { messages: [new HumanMessage({ id: requestId, content: text })] }, config);
 * if (status.state === "answered") reply(status.reply.content);
 */
export async function runTurnOnce(
  graph: TurnGraph,
  input: { messages: readonly BaseMessage[] },
  config: RunnableConfig,
): Promise<TurnOnceResult> {
  const messageId = input.messages[0]?.id;
  if (typeof messageId !== "string" || messageId === "")
    throw new InvalidOptionsError({
      option: "input.messages[0].id",
      value: messageId,
      message: "runTurnOnce keys a turn by its input message's id: give the message an id the client keeps for retries",
    });
  // The status lookup, createAgent's middleware-state lookup and the run's own load share one database read. A normal
  // turn of a scheduler with `pauseForResumed` waits at each step boundary while a resumed turn runs.
  const gate = currentGate();
  const gated = gate ? { ...config, callbacks: withHandler(config.callbacks, new GateCallbackHandler(gate)) } : config;
  const turnConfig = readingOnce(graph, gated, gate ? () => gate.pass() : undefined);
  const before = await turnStatus(graph, turnConfig, messageId);
  if (before.state === "answered") return { outcome: "stored", status: before };
  if (before.state === "waiting") return { outcome: "waiting", status: before };
  const output = await graph.invoke(before.state === "unfinished" ? null : input, turnConfig);
  return {
    outcome: before.state === "unfinished" ? "continued" : "ran",
    status: answeredIn(output, messageId) ?? (await turnStatus(graph, turnConfig, messageId)),
  };
}

/**
 * The answer in a run's output, when the run ended (no interrupt) with the thread's messages holding it: one database
 * read fewer per turn. Anything else (an interrupt, an output without the messages) is read back from the thread.
 */
function answeredIn(output: unknown, messageId: string): TurnStatus | undefined {
  if (typeof output !== "object" || output === null || "__interrupt__" in output) return undefined;
  if (!Array.isArray((output as { messages?: unknown }).messages)) return undefined;
  const status = statusInSnapshot({ values: output, next: [], tasks: [] }, messageId);
  return status.state === "answered" ? status : undefined;
}
