// A real LangGraph tool loop for tests and benchmarks: a scripted model node, tool calls fanned out with Send (one task
// per call, so a batch's finished calls are stored as pending writes), and the core skills load state as a channel.
import { appendFileSync } from "node:fs";
import { Annotation, END, interrupt, messagesStateReducer, Send, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { createLoadStateReducer, emptyLoadState, type SkillLoadEvent, type SkillLoadState } from "../internal/core.js";
import { messagesDeltaChannel } from "../state/messages-delta-channel.js";

export { Command } from "@langchain/langgraph";

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted model reply: tool calls, or plain text. */
export type ScriptedReply = { calls: ScriptedCall[] } | { say: string };

/** Context a fixture tool runs with. */
export interface FixtureToolContext {
  toolCallId: string;
  threadId: string;
}

/** Options of `buildSessionGraph`. */
export interface SessionGraphOptions {
  checkpointer: BaseCheckpointSaver;
  /** `delta`: messagesDeltaChannel; `full`: the classic reducer channel storing the whole history every step. */
  messages: "delta" | "full";
  /** Reply k of the model is `script[k]` (counting AI messages in the state); then "done". */
  script: ScriptedReply[];
  /** Current hash of a skill (load_skill records it); undefined = not found. */
  lookup: (name: string) => { hash: string } | undefined;
  /** Extra tools by name; `load_skill`, `approve` (interrupt) and `echo` are built in. */
  tools?: Record<string, (args: Record<string, unknown>, context: FixtureToolContext) => Promise<string>>;
  /** Append `start <callId>` / `done <callId>` lines here around every tool execution. */
  sideFile?: string;
  /** Snapshot frequency of the delta messages channel. */
  snapshotFrequency?: number;
}

interface ToolInput {
  call: { id: string; name: string; args: Record<string, unknown> };
  seq: number;
}

/** A compiled tool-loop graph over the given checkpointer. */
export function buildSessionGraph(options: SessionGraphOptions) {
  const State = Annotation.Root({
    messages: options.messages === "delta" ? messagesDeltaChannel({ snapshotFrequency: options.snapshotFrequency }) : Annotation<unknown[]>({ reducer: messagesStateReducer as never, default: () => [] }),
    skills: Annotation<SkillLoadState, SkillLoadState | SkillLoadEvent[]>({ reducer: createLoadStateReducer(), default: emptyLoadState }),
  });
  type S = typeof State.State;

  const model = (state: S, config: { configurable?: Record<string, unknown> }) => {
    const messages = state.messages as Array<{ getType?: () => string; tool_calls?: unknown[] }>;
    const aiCount = messages.filter((m) => m.getType?.() === "ai").length;
    const reply = options.script[aiCount] ?? { say: "done" };
    const id = `ai-${config.configurable?.thread_id}-${aiCount}`;
    if ("say" in reply) return { messages: [{ role: "assistant", content: reply.say, id }] };
    const tool_calls = reply.calls.map((call, index) => ({ id: `call-${aiCount}-${index}`, name: call.name, args: call.args, type: "tool_call" }));
    return { messages: [{ role: "assistant", content: "", tool_calls, id }] };
  };

  const route = (state: S) => {
    const last = (state.messages as Array<{ tool_calls?: Array<{ id: string; name: string; args: Record<string, unknown> }> }>).at(-1);
    const calls = last?.tool_calls ?? [];
    if (calls.length === 0) return END;
    return calls.map((call) => new Send("tool", { call, seq: state.skills.seq + 1 } satisfies ToolInput));
  };

  const tool = async (input: ToolInput, config: { configurable?: Record<string, unknown> }) => {
    const { call, seq } = input;
    const context = { toolCallId: call.id, threadId: String(config.configurable?.thread_id) };
    const message = (content: string) => ({ role: "tool", content, tool_call_id: call.id, id: `tool-${context.threadId}-${call.id}` });
    if (call.name === "approve") {
      const answer = interrupt({ question: `approve ${String(call.args.action)}?` });
      return { messages: [message(`approval: ${JSON.stringify(answer)}`)] };
    }
    if (options.sideFile) appendFileSync(options.sideFile, `start ${context.threadId} ${call.id}\n`);
    let result: { messages: unknown[]; skills?: SkillLoadEvent[] };
    if (call.name === "load_skill") {
      const name = String(call.args.name);
      const found = options.lookup(name);
      result = found
        ? { messages: [message(`loaded ${name}`)], skills: [{ type: "load", name, mode: "session", hash: found.hash, seq }] }
        : { messages: [message(`skill ${name} not found`)] };
    } else if (call.name === "echo") {
      result = { messages: [message(String(call.args.text ?? ""))] };
    } else {
      const run = options.tools?.[call.name];
      result = { messages: [message(run ? await run(call.args, context) : `unknown tool ${call.name}`)] };
    }
    if (options.sideFile) appendFileSync(options.sideFile, `done ${context.threadId} ${call.id}\n`);
    return result;
  };

  return new StateGraph(State)
    .addNode("model", model)
    .addNode("tool", tool as never)
    .addEdge(START, "model")
    .addConditionalEdges("model", route as never, ["tool", END] as never)
    .addEdge("tool", "model")
    .compile({ checkpointer: options.checkpointer });
}

/** A user turn as graph input. */
export function userTurn(text: string, id: string) {
  return { messages: [{ role: "user", content: text, id }] };
}
