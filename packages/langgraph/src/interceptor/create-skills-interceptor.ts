import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { LoadedSkillEntry } from "../internal/core.js";
import { getLoadedSkills } from "../state/get-loaded-skills.js";
import { emitSkillsEvents } from "../events/emit-skills-events.js";
import type { SkillsEvent } from "../events/skills-event.js";
import type { BuiltModelRequest } from "../engine/model-request.js";
import { createSkillsEngine } from "../engine/skills-engine.js";
import { observeModelCall } from "../history/model-call-observer.js";
import { newReplyId, settleModelReply } from "../history/settle-model-reply.js";
import { mergeAgentUpdates, afterModelCall, endTurn, prepareModelCall } from "../engine/state-events.js";
import {
  gateCalls,
  orderOutputs,
  pendingCalls,
  runForwarded,
  toolNodeTools,
  withFileReads,
  type GatedToolNodeOptions,
} from "./gated-tool-node.js";
import { invocationOptions } from "../options/invocation-options.js";
import { resolveOptions } from "../options/resolve-options.js";
import { InvalidOptionsError } from "../internal/core.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import {
  emptyAgentSkillsState,
  readAgentSkillsState,
  SKILLS_STATE_KEY,
  skillsStateSpec,
  type AgentSkillsUpdate,
  type SkillsStateUpdate,
} from "../state/skills-state.js";
import { buildModelRequest } from "../engine/model-request.js";

/** The graph state the interceptor's nodes read: messages plus the skills channel. */
export interface SkillsGraphState {
  messages: BaseMessage[];
  [SKILLS_STATE_KEY]?: unknown;
}

/** The update the interceptor's nodes return. */
export interface SkillsNodeUpdate {
  messages: BaseMessage[];
  [SKILLS_STATE_KEY]?: SkillsStateUpdate;
}

/** What the model node sends: the rewritten request and the state change to record. */
export interface PreparedModelRequest extends BuiltModelRequest {
  /** `[SystemMessage, ...messages]`, ready for `model.invoke`. */
  input: BaseMessage[];
  /** Skills-channel update to return from the node (turn end, drift, model-call count); `{}` when nothing changed. */
  update: SkillsStateUpdate;
  events: SkillsEvent[];
}

/** Model wiring for `callModel`. */
export interface CallModelOptions {
  /** The agent's own system prompt; the skills section is appended to it. @default "" */
  systemPrompt?: string;
  /** The agent's always-on tools (besides skills tools and skill-owned tools). @default [] */
  tools?: readonly StructuredToolInterface[];
}

/** The SkillsInterceptor for a hand-built StateGraph: state fragment, model node, gated tool node. */
export interface SkillsInterceptor {
  readonly agentId: string;
  /** State fragment to spread into the graph's `Annotation.Root({...})`. */
  readonly stateSpec: typeof skillsStateSpec;
  /** Every tool this interceptor serves: skills tools, `tools`, `skillTools` and hook tools. */
  readonly tools: StructuredToolInterface[];
  /** Rewrites a model request (system prompt + tools + materialised messages) without calling a model. */
  prepareModelRequest(
    state: SkillsGraphState,
    config: LangGraphRunnableConfig | undefined,
    options?: CallModelOptions,
  ): Promise<PreparedModelRequest>;
  /** A graph node calling `model` with the rewritten request. */
  callModel(
    model: BaseChatModel,
    options?: CallModelOptions,
  ): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<SkillsNodeUpdate>;
  /**
   * A graph node running the last AI message's tool calls: blocked calls get error ToolMessages, skills tools run
   * here, and every other call is handed to LangGraph's own `ToolNode` (interrupts, `Command` returns and tool-error
   * handling are the library's).
   */
  toolNode(
    tools?: readonly StructuredToolInterface[],
    options?: GatedToolNodeOptions,
  ): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<SkillsNodeUpdate | Command[]>;
  /** A graph node ending the turn (drops `turn` and `once` skills); put it before END, or rely on the next user message doing it. */
  endTurn(): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<Partial<SkillsNodeUpdate>>;
  /** The skills this agent has loaded in a graph state (or `getState().values`), oldest load first: `getLoadedSkills` for this agent id. */
  loadedSkills(state: unknown): LoadedSkillEntry[];
  /** Releases the hooks' per-thread resources (all threads when no id), e.g. shell sandboxes. */
  dispose(threadId?: string): Promise<void>;
}

/**
 * Agent Skills for a hand-built LangGraph `StateGraph`; the same engine as `createSkillsMiddleware`.
 * @param options the skills catalog and behaviour (see SkillsRuntimeOptions)
 * @example
 * const skills = createSkillsInterceptor({ skills: registry });
 * const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
 * const graph = new StateGraph(State)
 *   .addNode("agent", skills.callModel(model, { systemPrompt: "You are helpful.", tools: [search] }))
 *   .addNode("tools", skills.toolNode([search]))
 *   .addEdge(START, "agent").addConditionalEdges("agent", toolsCondition, ["tools", END]).addEdge("tools", "agent")
 *   .compile({ checkpointer });
 */
export function createSkillsInterceptor(options: SkillsRuntimeOptions): SkillsInterceptor {
  const resolved = resolveOptions(options);
  const engine = createSkillsEngine(resolved);
  const agentId = resolved.agentId;
  const skillsTools = engine.versions.cacheFor(engine.views.catalogFor(emptyAgentSkillsState(), undefined)).skillsTools;
  const wrap = (update: AgentSkillsUpdate | undefined): SkillsStateUpdate => (update ? { [agentId]: update } : {});
  const scope = (state: SkillsGraphState, config: LangGraphRunnableConfig | undefined) => {
    const agentState = readAgentSkillsState(state, agentId);
    const catalog = engine.views.catalogFor(
      agentState,
      invocationOptions(config?.configurable, (config as { context?: unknown } | undefined)?.context),
    );
    return { agentState, catalog, threadId: config?.configurable?.thread_id as string | undefined };
  };

  const prepareModelRequest: SkillsInterceptor["prepareModelRequest"] = async (state, config, callOptions = {}) => {
    const { agentState, catalog, threadId } = scope(state, config);
    const prepared = prepareModelCall(agentState, state.messages, catalog, engine.options);
    const built = await buildModelRequest(engine, {
      state: prepared.state,
      catalog,
      systemText: callOptions.systemPrompt ?? "",
      messages: state.messages,
      tools: callOptions.tools ?? [],
      threadId,
    });
    const after = afterModelCall(prepared.state, engine.agentId);
    const input = built.systemText ? [new SystemMessage(built.systemText), ...built.messages] : built.messages;
    return {
      ...built,
      input,
      update: wrap(mergeAgentUpdates(prepared.update, after.update)),
      events: [...prepared.events, ...after.events],
    };
  };

  return {
    agentId,
    stateSpec: skillsStateSpec,
    tools: [...skillsTools, ...engine.servedTools],
    prepareModelRequest,
    callModel(model, callOptions = {}) {
      if (typeof model?.bindTools !== "function")
        throw new InvalidOptionsError({
          option: "model",
          value: model,
          message: "callModel needs a model that supports bindTools (a LangChain chat model)",
        });
      return async (state, config) => {
        const request = await prepareModelRequest(state, config, callOptions);
        const bound = model.bindTools!(request.tools);
        // The reply gets an id of this runtime and thread-unique call ids before it reaches state: endpoints repeat
        // both, and the messages reducer would replace an earlier message with the same id.
        const id = newReplyId();
        const call = await observeModelCall(() => bound.invoke(request.input, config), id, config.callbacks);
        const response = settleModelReply(call.value, state.messages, {
          id,
          usedIds: engine.threadHistory.of(state.messages).usedIds,
          finishReason: call.finishReason,
          providerMessageId: call.providerMessageId,
        });
        await emitSkillsEvents(request.events, { writer: config.writer, config });
        // Cancellation answers for dangling tool calls are persisted (before the response, which stays last); the
        // request builder moves them next to their AI message on every request.
        const messages = [...request.repairs, response];
        return Object.keys(request.update).length > 0 ? { messages, [SKILLS_STATE_KEY]: request.update } : { messages };
      };
    },
    toolNode(tools = [], nodeOptions = {}) {
      const libraryNode = new ToolNode(toolNodeTools(engine.servedTools, tools), {
        handleToolErrors: nodeOptions.handleToolErrors ?? true,
      });
      return async (state, config) => {
        const at = pendingCalls(state.messages);
        const { agentState, catalog, threadId } = scope(state, config);
        const gateScope = { engine, agentId, agentState, catalog, threadId, messages: state.messages };
        const gated = await gateCalls(at.calls, gateScope);
        // GraphInterrupt (and any error ToolNode rethrows) propagates from here: the graph pauses, nothing is written.
        const outputs = await runForwarded(
          libraryNode,
          { state: state as never, at, forwarded: gated.forwarded },
          config,
        );
        const { update, events } = withFileReads(gated, outputs, gateScope);
        await emitSkillsEvents(events, { writer: config.writer, config });
        const { messages, rest } = orderOutputs(at.calls, gated.answered, outputs);
        const own: SkillsNodeUpdate = { messages, ...(update ? { [SKILLS_STATE_KEY]: wrap(update) } : {}) };
        return rest.length > 0
          ? [new Command({ update: own as unknown as Record<string, unknown> }), ...(rest as Command[])]
          : own;
      };
    },
    loadedSkills: (state) => getLoadedSkills(state, agentId),
    async dispose(threadId) {
      await Promise.all(resolved.hooks.map((hook) => hook.dispose?.(threadId)));
    },
    endTurn() {
      return async (state, config) => {
        const { agentState } = scope(state, config);
        if (Object.keys(agentState.load.loaded).length === 0) return {};
        const ended = endTurn(agentState, engine.agentId);
        if (!ended.update) return {};
        await emitSkillsEvents(ended.events, { writer: config.writer, config });
        return { [SKILLS_STATE_KEY]: wrap(ended.update) };
      };
    },
  };
}
