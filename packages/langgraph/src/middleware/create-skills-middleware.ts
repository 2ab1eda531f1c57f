import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { emitSkillsEvents } from "../events/emit-skills-events.js";
import type { SkillsEvent } from "../events/skills-event.js";
import { createSkillsEngine, fileRead } from "../engine/skills-engine.js";
import { refusedCall, refusedCallMessage } from "../history/refused-call.js";
import { observeModelCall } from "../history/model-call-observer.js";
import { withoutUndefinedFields } from "../history/stored-tool-result.js";
import { newReplyId, settledReplyFields, type SettleOptions } from "../history/settle-model-reply.js";
import { mergeAgentUpdates, afterModelCall, endTurn, loadsForTurns, prepareModelCall } from "../engine/state-events.js";
import { blockedMessage, outcomeMessage, runSkillsTool, touchOwner } from "../engine/tool-running.js";
import { invocationOptions } from "../options/invocation-options.js";
import { resolveOptions } from "../options/resolve-options.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { readAgentSkillsState, SKILLS_STATE_KEY, type AgentSkillsUpdate } from "../state/skills-state.js";
import { buildModelRequest } from "../engine/model-request.js";
import { gateToolCall } from "../engine/tool-gate.js";
import { skillsMiddlewareStateSchema } from "./middleware-state-schema.js";

interface RuntimeLike {
  writer?: (chunk: unknown) => void;
  configurable?: Record<string, unknown>;
  context?: unknown;
}

/**
 * Agent Skills as a `createAgent` middleware: skills prompt, skills tools, gated skill tools, load modes, events.
 * Same engine as `createSkillsInterceptor`.
 * @param options the skills catalog and behaviour (see SkillsRuntimeOptions)
 * @example
 * const agent = createAgent({ model, tools: [search], middleware: [createSkillsMiddleware({ skills: registry })] });
 */
export function createSkillsMiddleware(options: SkillsRuntimeOptions) {
  const resolved = resolveOptions(options);
  const engine = createSkillsEngine(resolved);
  const agentId = resolved.agentId;
  const stateUpdate = (update: AgentSkillsUpdate | undefined) =>
    update ? { [SKILLS_STATE_KEY]: { [agentId]: update } } : {};
  const context = (state: unknown, runtime: RuntimeLike) => {
    const agentState = readAgentSkillsState(state, agentId);
    const catalog = engine.views.catalogFor(agentState, invocationOptions(runtime.configurable, runtime.context));
    const threadId = runtime.configurable?.thread_id as string | undefined;
    return { agentState, catalog, threadId };
  };
  const emit = (events: SkillsEvent[], runtime: RuntimeLike) =>
    events.length > 0 ? emitSkillsEvents(events, { writer: runtime.writer }) : undefined;

  return createMiddleware({
    name: agentId === "default" ? "SkillsMiddleware" : `SkillsMiddleware_${agentId.replace(/[^A-Za-z0-9_-]/g, "_")}`,
    stateSchema: skillsMiddlewareStateSchema(),
    // Skills tools are added per request (their enum follows registry reloads) and served in wrapToolCall, never by the ToolNode.
    tools: engine.servedTools,
    // State changes of a model call (turn end, drift, the model-call count) ride on a Command returned from
    // wrapModelCall: no beforeModel/afterModel nodes, so no extra super-steps (and checkpoints) per model call.
    wrapModelCall: async (request, handler) => {
      const runtime = request.runtime as RuntimeLike;
      const { agentState, catalog, threadId } = context(request.state, runtime);
      const prepared = prepareModelCall(agentState, request.messages, catalog, engine.options);
      const base = systemTextOf(request.systemMessage) ?? request.systemPrompt ?? "";
      const built = await buildModelRequest(engine, {
        state: prepared.state,
        catalog,
        systemText: base,
        messages: request.messages,
        tools: request.tools as never,
        threadId,
      });
      // the skills text as built (the same string object while nothing changed), not cut back out of the joined text
      const suffix = base ? built.skillsText : built.skillsText.replace(/^\n\n/, "");
      const systemMessage = !suffix ? request.systemMessage : withSuffix(request.systemMessage, base, suffix);
      const id = newReplyId();
      const call = await observeModelCall(
        async () => handler({ ...request, systemMessage, messages: built.messages, tools: built.tools as never }),
        id,
      );
      const response = call.value;
      settleInPlace(response, request.state, {
        id,
        usedIds: engine.threadHistory.of(messagesOf(request.state)).usedIds,
        finishReason: call.finishReason,
        providerMessageId: call.providerMessageId,
      });
      const after = afterModelCall(prepared.state, engine.agentId);
      await emit([...prepared.events, ...after.events], runtime);
      const update = mergeAgentUpdates(prepared.update, after.update);
      return update ? (new Command({ update: stateUpdate(update) }) as never) : response;
    },
    // The turn end, only for options that load skills for a turn (or once): the hook is a graph node, one more
    // super-step (a checkpoint of the whole conversation) per invoke. It returns nothing when nothing is dropped: any
    // object, even {}, makes createAgent write every state key (the whole history) back.
    ...(loadsForTurns(resolved)
      ? {
          afterAgent: async (state: unknown, runtime: unknown) => {
            const agentState = readAgentSkillsState(state, agentId);
            if (Object.keys(agentState.load.loaded).length === 0) return undefined;
            const ended = endTurn(agentState, engine.agentId);
            if (!ended.update) return undefined;
            await emit(ended.events, runtime as RuntimeLike);
            return stateUpdate(ended.update) as never;
          },
        }
      : {}),
    wrapToolCall: async (request, handler) => {
      const runtime = request.runtime as RuntimeLike;
      const { agentState, catalog, threadId } = context(request.state, runtime);
      const call = { name: request.toolCall.name, args: request.toolCall.args, id: request.toolCall.id };
      const refusal = refusedCall(messagesOf(request.state), call.id);
      if (refusal) return refusedCallMessage(refusal, call);
      const decision = gateToolCall(engine, call, { state: agentState, catalog, threadId });
      if (decision.action === "block") {
        await emit([{ type: "tool-blocked", agentId, tool: call.name, reason: decision.reason }], runtime);
        return blockedMessage(decision.reason, call);
      }
      if (decision.action === "skills-tool") {
        const outcome = await runSkillsTool(engine, call, agentState, catalog);
        await emit(outcome.events ?? [], runtime);
        return new Command({ update: { messages: [outcomeMessage(outcome, call)], ...stateUpdate(outcome.update) } });
      }
      const forwarded = decision.tool
        ? {
            ...request,
            tool: decision.tool,
            toolCall: {
              ...request.toolCall,
              name: decision.call.name,
              args: decision.call.args as Record<string, unknown>,
            },
          }
        : request;
      const result = await handler(forwarded);
      if (ToolMessage.isInstance(result)) withoutUndefinedFields(result);
      const read =
        ToolMessage.isInstance(result) && result.status !== "error"
          ? fileRead(engine, decision.call, agentState, catalog)
          : undefined;
      if (read) await emit(read.events, runtime);
      const touch = mergeAgentUpdates(touchOwner(decision.owner, agentState), read?.update);
      if (!touch || !ToolMessage.isInstance(result)) return result;
      return new Command({ update: { messages: [result], ...stateUpdate(touch) } });
    },
  });
}

/**
 * The system message with the skills text after it: one message per (system message, suffix), kept while the system
 * message lives, so an unchanged prompt is not built again on every model call (the suffix changes with the registry
 * generation, the loaded skills and the view, and then a new message is built).
 */
const suffixed = new WeakMap<SystemMessage, { suffix: string; message: SystemMessage }>();

function withSuffix(system: SystemMessage | undefined, base: string, suffix: string): SystemMessage {
  if (!system || !base) return new SystemMessage(base ? `${base}\n\n${suffix}` : suffix);
  const cached = suffixed.get(system);
  if (cached?.suffix === suffix) return cached.message;
  const message = system.concat(`\n\n${suffix}`);
  suffixed.set(system, { suffix, message });
  return message;
}

/**
 * The text of the system message, read once per message object: createAgent hands the same message to every call,
 * and `.text` of content blocks converts them again on each read. A string content is the text itself.
 */
const systemTexts = new WeakMap<SystemMessage, { content: unknown; text: string }>();

function systemTextOf(system: SystemMessage | undefined): string | undefined {
  if (!system) return undefined;
  const content = system.content;
  if (typeof content === "string") return content;
  const cached = systemTexts.get(system);
  if (cached?.content === content) return cached.text;
  const text = system.text;
  systemTexts.set(system, { content, text });
  return text;
}

function messagesOf(state: unknown): readonly BaseMessage[] {
  const messages = (state as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as BaseMessage[]) : [];
}

/**
 * Settles the model's reply (see settleModelReply) on the reply object itself: when this middleware returns a
 * Command, createAgent stores the AIMessage its base handler produced, not one returned from here.
 */
function settleInPlace(response: unknown, state: unknown, observed: SettleOptions): void {
  if (!AIMessage.isInstance(response)) return;
  const settled = settledReplyFields(response, messagesOf(state), observed);
  const fields = {
    id: settled.id,
    content: settled.content,
    tool_calls: settled.tool_calls,
    invalid_tool_calls: settled.invalid_tool_calls,
    additional_kwargs: settled.additional_kwargs,
    response_metadata: settled.response_metadata,
    // A streamed reply is a chunk, which rebuilds its calls from its deltas when read back from a checkpoint: the
    // deltas must say what the settled calls say.
    ...("tool_call_chunks" in response
      ? {
          tool_call_chunks: (settled.tool_calls ?? []).map((call, index) => ({
            name: call.name,
            args: JSON.stringify(call.args),
            id: call.id,
            index,
            type: "tool_call_chunk" as const,
          })),
        }
      : {}),
  };
  Object.assign(response, fields);
  Object.assign(response.lc_kwargs, fields);
}
