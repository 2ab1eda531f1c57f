import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Command, isCommand, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emitSkillsEvents } from "../events/emit-skills-events.js";
import type { SkillsEvent } from "../events/skills-event.js";
import type { BuiltModelRequest } from "../engine/build-model-request.js";
import { SkillsEngine } from "../engine/skills-engine.js";
import { mergeAgentUpdates } from "../engine/merge-updates.js";
import { blockedMessage, outcomeMessage } from "../engine/outcome-message.js";
import { invocationOptions } from "../options/invocation-options.js";
import { resolveOptions } from "../options/resolve-options.js";
import { InvalidOptionsError } from "../internal/core.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { emptyAgentSkillsState, readAgentSkillsState, SKILLS_STATE_KEY, skillsStateSpec, type AgentSkillsUpdate, type SkillsStateUpdate } from "../state/skills-state.js";

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
  prepareModelRequest(state: SkillsGraphState, config: LangGraphRunnableConfig | undefined, options?: CallModelOptions): Promise<PreparedModelRequest>;
  /** A graph node calling `model` with the rewritten request. */
  callModel(model: BaseChatModel, options?: CallModelOptions): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<SkillsNodeUpdate>;
  /** A graph node running the last AI message's tool calls: skills tools, gated skill tools, and `tools`; blocked calls get error ToolMessages. */
  toolNode(tools?: readonly StructuredToolInterface[]): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<SkillsNodeUpdate | Command[]>;
  /** A graph node ending the turn (drops `turn` and `once` skills); put it before END, or rely on the next user message doing it. */
  endTurn(): (state: SkillsGraphState, config: LangGraphRunnableConfig) => Promise<Partial<SkillsNodeUpdate>>;
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
  const engine = new SkillsEngine(resolved);
  const agentId = resolved.agentId;
  const skillsTools = engine.skillsTools(engine.catalogFor(emptyAgentSkillsState(), undefined));
  const wrap = (update: AgentSkillsUpdate | undefined): SkillsStateUpdate => (update ? { [agentId]: update } : {});
  const scope = (state: SkillsGraphState, config: LangGraphRunnableConfig | undefined) => {
    const agentState = readAgentSkillsState(state, agentId);
    const catalog = engine.catalogFor(agentState, invocationOptions(config?.configurable, (config as { context?: unknown } | undefined)?.context));
    return { agentState, catalog, threadId: config?.configurable?.thread_id as string | undefined };
  };

  const prepareModelRequest: SkillsInterceptor["prepareModelRequest"] = async (state, config, callOptions = {}) => {
    const { agentState, catalog, threadId } = scope(state, config);
    const prepared = engine.prepare(agentState, state.messages, catalog);
    const built = await engine.buildModelRequest({ state: prepared.state, catalog, systemText: callOptions.systemPrompt ?? "", messages: state.messages, tools: callOptions.tools ?? [], threadId });
    const after = engine.afterModel(prepared.state);
    const input = built.systemText ? [new SystemMessage(built.systemText), ...built.messages] : built.messages;
    return { ...built, input, update: wrap(mergeAgentUpdates(prepared.update, after.update)), events: [...prepared.events, ...after.events] };
  };

  return {
    agentId,
    stateSpec: skillsStateSpec,
    tools: [...skillsTools, ...engine.servedTools],
    prepareModelRequest,
    callModel(model, callOptions = {}) {
      if (typeof model?.bindTools !== "function") throw new InvalidOptionsError({ option: "model", value: model, message: "callModel needs a model that supports bindTools (a LangChain chat model)" });
      return async (state, config) => {
        const request = await prepareModelRequest(state, config, callOptions);
        const bound = model.bindTools!(request.tools);
        const response = await bound.invoke(request.input, config);
        await emitSkillsEvents(request.events, { writer: config.writer, config });
        return Object.keys(request.update).length > 0 ? { messages: [response], [SKILLS_STATE_KEY]: request.update } : { messages: [response] };
      };
    },
    toolNode(tools = []) {
      const byName = new Map<string, StructuredToolInterface>(tools.map((tool) => [tool.name, tool]));
      return async (state, config) => {
        const last = [...state.messages].reverse().find((message) => message.getType() === "ai") as AIMessage | undefined;
        const calls = last?.tool_calls ?? [];
        const { agentState, catalog, threadId } = scope(state, config);
        const events: SkillsEvent[] = [];
        const commands: Command[] = [];
        const results = await Promise.all(
          calls.map(async (toolCall): Promise<{ message?: ToolMessage; update?: AgentSkillsUpdate }> => {
            const call = { name: toolCall.name, args: toolCall.args, id: toolCall.id };
            const decision = engine.gateToolCall(call, agentState, catalog, threadId);
            if (decision.action === "block") {
              events.push({ type: "tool-blocked", agentId, tool: call.name, reason: decision.reason });
              return { message: blockedMessage(decision.reason, call) };
            }
            if (decision.action === "skills-tool") {
              const outcome = await engine.runSkillsTool(call, agentState, catalog);
              events.push(...(outcome.events ?? []));
              return { message: outcomeMessage(outcome, call), update: outcome.update };
            }
            const tool = decision.tool ?? byName.get(decision.call.name);
            if (!tool) return { message: blockedMessage(`Tool '${call.name}' does not exist. Available tools are listed in your tool definitions.`, call) };
            const touch = engine.touch(decision.owner, agentState);
            try {
              const output: unknown = await tool.invoke({ name: decision.call.name, args: decision.call.args as Record<string, unknown>, id: call.id, type: "tool_call" }, config);
              if (isCommand(output)) {
                commands.push(output as Command);
                return { update: touch };
              }
              const message = ToolMessage.isInstance(output) ? output : new ToolMessage({ content: typeof output === "string" ? output : JSON.stringify(output), tool_call_id: call.id ?? "", name: call.name });
              return { message, update: touch };
            } catch (error) {
              return { message: blockedMessage(`Error running tool '${decision.call.name}': ${(error as Error).message}`, call) };
            }
          }),
        );
        await emitSkillsEvents(events, { writer: config.writer, config });
        const messages = results.flatMap((result) => (result.message ? [result.message] : []));
        const update = mergeAgentUpdates(...results.map((result) => result.update));
        const own: SkillsNodeUpdate = { messages, ...(update ? { [SKILLS_STATE_KEY]: wrap(update) } : {}) };
        return commands.length > 0 ? [new Command({ update: own as unknown as Record<string, unknown> }), ...commands] : own;
      };
    },
    async dispose(threadId) {
      await Promise.all(resolved.hooks.map((hook) => hook.dispose?.(threadId)));
    },
    endTurn() {
      return async (state, config) => {
        const { agentState } = scope(state, config);
        if (Object.keys(agentState.load.loaded).length === 0) return {};
        const ended = engine.endTurn(agentState);
        await emitSkillsEvents(ended.events, { writer: config.writer, config });
        return { [SKILLS_STATE_KEY]: wrap(ended.update) };
      };
    },
  };
}
