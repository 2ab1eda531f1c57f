import { AIMessage, isAIMessage, type BaseMessage, type ToolCall, type ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { isCommand, type Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ToolNode } from "@langchain/langgraph/prebuilt";
import type { SkillCatalog } from "../internal/core.js";
import type { SkillsEngine } from "../engine/skills-engine.js";
import { mergeAgentUpdates } from "../engine/state-events.js";
import { blockedMessage, outcomeMessage, runSkillsTool, touchOwner } from "../engine/tool-running.js";
import type { SkillsEvent } from "../events/skills-event.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import { refusedCall, refusedCallMessage } from "../history/refused-call.js";
import { withoutUndefinedFields } from "../history/stored-tool-result.js";
import { gateToolCall } from "../engine/tool-gate.js";
import { fileRead } from "../engine/skills-engine.js";

/** Options of the gated tool node; `handleToolErrors` is LangGraph `ToolNode`'s own option. */
export interface GatedToolNodeOptions {
  /** Passed to LangGraph's `ToolNode`: turn tool errors into error ToolMessages. @default true */
  handleToolErrors?: boolean;
}

/** What one gated pass over the calls produced before the rest is handed to `ToolNode`. */
export interface GatedCalls {
  /** Answers the gate wrote itself (blocked calls, skills tools), keyed by tool_call_id. */
  answered: Map<string, ToolMessage>;
  /** Calls that go to `ToolNode`, already rewritten (dispatcher calls become the inner call; same id). */
  forwarded: ToolCall[];
  update: AgentSkillsUpdate | undefined;
  events: SkillsEvent[];
  /** Forwarded calls by tool_call_id (a successful read of a SKILL.md by a generic file tool loads the skill: `withFileReads`). */
  fileReads: Map<string, ToolCall>;
}

/** What gating one AI message's calls runs against. */
export interface GateScope {
  engine: SkillsEngine;
  agentId: string;
  agentState: AgentSkillsState;
  catalog: SkillCatalog;
  threadId: string | undefined;
  /** The thread's messages (refusals recorded on the AI message are looked up there). */
  messages: readonly BaseMessage[];
}

/**
 * Gates the calls of one AI message: blocked calls and skills tools are answered here, the rest is handed on to
 * LangGraph's `ToolNode` unchanged in meaning (so interrupts, `Command` returns and error handling come from it).
 */
export async function gateCalls(calls: readonly ToolCall[], scope: GateScope): Promise<GatedCalls> {
  const { engine, agentId, agentState, catalog, threadId } = scope;
  const answered = new Map<string, ToolMessage>();
  const forwarded: ToolCall[] = [];
  const updates: Array<AgentSkillsUpdate | undefined> = [];
  const events: SkillsEvent[] = [];
  const fileReads = new Map<string, ToolCall>();
  await Promise.all(
    calls.map(async (toolCall) => {
      const call = { name: toolCall.name, args: toolCall.args, id: toolCall.id };
      const refusal = refusedCall(scope.messages, toolCall.id);
      if (refusal) {
        answered.set(toolCall.id ?? "", refusedCallMessage(refusal, call));
        return;
      }
      const decision = gateToolCall(engine, call, { state: agentState, catalog, threadId });
      if (decision.action === "block") {
        events.push({ type: "tool-blocked", agentId, tool: call.name, reason: decision.reason });
        answered.set(toolCall.id ?? "", blockedMessage(decision.reason, call));
        return;
      }
      if (decision.action === "skills-tool") {
        const outcome = await runSkillsTool(engine, call, agentState, catalog);
        events.push(...(outcome.events ?? []));
        answered.set(toolCall.id ?? "", outcomeMessage(outcome, call));
        updates.push(outcome.update);
        return;
      }
      const inner = decision.call;
      const next: ToolCall = {
        ...toolCall,
        name: inner.name,
        args: inner.args as Record<string, unknown>,
        type: "tool_call",
      };
      forwarded.push(next);
      fileReads.set(toolCall.id ?? "", next);
      updates.push(touchOwner(decision.owner, agentState));
    }),
  );
  return { answered, forwarded, update: mergeAgentUpdates(...updates), events, fileReads };
}

/** Loads of skills whose SKILL.md a forwarded generic file tool read successfully, merged into the gate's update. */
export function withFileReads(
  gated: GatedCalls,
  outputs: ReadonlyArray<ToolMessage | Command | Record<string, unknown>>,
  scope: GateScope,
): { update: AgentSkillsUpdate | undefined; events: SkillsEvent[] } {
  const updates: Array<AgentSkillsUpdate | undefined> = [gated.update];
  const events = [...gated.events];
  for (const output of outputs) {
    if (isCommand(output) || (output as BaseMessage).getType?.() !== "tool") continue;
    const message = output as ToolMessage;
    const call = gated.fileReads.get(message.tool_call_id);
    if (!call || message.status === "error") continue;
    const read = fileRead(scope.engine, call, scope.agentState, scope.catalog);
    if (!read) continue;
    updates.push(read.update);
    events.push(...read.events);
  }
  return { update: mergeAgentUpdates(...updates), events };
}

/** The tools LangGraph's ToolNode runs: the interceptor's served tools (pool, skillTools, hooks), then the graph's own. */
export function toolNodeTools(
  served: readonly StructuredToolInterface[],
  own: readonly StructuredToolInterface[],
): StructuredToolInterface[] {
  const names = new Set(served.map((tool) => tool.name));
  return [...served, ...own.filter((tool) => !names.has(tool.name))];
}

/**
 * The pending calls of the last AI message: those no ToolMessage after it answers (an answer earlier in the thread
 * belongs to an earlier call, even when an endpoint repeated its id).
 */
export function pendingCalls(messages: readonly BaseMessage[]): {
  index: number;
  message?: AIMessage;
  calls: ToolCall[];
} {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (!isAIMessage(message)) continue;
    const answered = new Set(
      messages
        .slice(index + 1)
        .filter((later) => later.getType() === "tool")
        .map((later) => (later as ToolMessage).tool_call_id),
    );
    return {
      index,
      message,
      calls: (message.tool_calls ?? []).filter((call) => call.id == null || !answered.has(call.id)),
    };
  }
  return { index: -1, calls: [] };
}

/** The calls the gate let through to the library's tool node: the state, where their AI message is, the calls. */
export interface ForwardedCalls {
  state: { messages: BaseMessage[] } & Record<string, unknown>;
  at: { index: number; message?: AIMessage };
  forwarded: ToolCall[];
}

/** Runs the forwarded calls through `toolNode` with the rest of the state as its tools' `runtime.state`. */
export async function runForwarded(
  toolNode: ToolNode,
  { state, at, forwarded }: ForwardedCalls,
  config: LangGraphRunnableConfig,
): Promise<Array<ToolMessage | Command | Record<string, unknown>>> {
  if (forwarded.length === 0 || !at.message) return [];
  const rewritten = new AIMessage({ content: at.message.content, id: at.message.id, tool_calls: forwarded });
  const messages = [...state.messages.slice(0, at.index), rewritten, ...state.messages.slice(at.index + 1)];
  const output: unknown = await toolNode.invoke({ ...state, messages }, config);
  if (Array.isArray(output)) return output as Array<Command | Record<string, unknown>>;
  return ((output as { messages?: ToolMessage[] }).messages ?? []) as ToolMessage[];
}

/** Orders ToolMessages by the AI message's call order; commands and other updates follow unchanged. */
export function orderOutputs(
  calls: readonly ToolCall[],
  answered: Map<string, ToolMessage>,
  outputs: ReadonlyArray<ToolMessage | Command | Record<string, unknown>>,
) {
  const byId = new Map(answered);
  const rest: Array<Command | Record<string, unknown>> = [];
  for (const output of outputs) {
    if (isCommand(output)) rest.push(output);
    else if ((output as BaseMessage).getType?.() === "tool")
      byId.set((output as ToolMessage).tool_call_id, output as ToolMessage);
    else rest.push(output as Record<string, unknown>);
  }
  const messages = calls.flatMap((call) => {
    const message = byId.get(call.id ?? "");
    if (message) byId.delete(call.id ?? "");
    return message ? [withoutUndefinedFields(message)] : [];
  });
  // A ToolMessage answering no call of this step (a tool that set its own tool_call_id) is kept, after the others.
  messages.push(...[...byId.values()].map(withoutUndefinedFields));
  return { messages, rest };
}
