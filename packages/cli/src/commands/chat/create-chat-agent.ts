import { randomUUID } from "node:crypto";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { messagesDeltaChannel } from "@skillgraph/checkpoint";
import type { SkillCatalog } from "@skillgraph/core";
import { createSkillsInterceptor, type SkillsRuntimeOptions } from "@skillgraph/langgraph";
import { repairDanglingToolCalls } from "@skillgraph/langgraph/repair";
import type { ChatEvent } from "./chat-event.js";
import { chatEventsFromStream, createChatStreamContext, seedChatStreamContext } from "./chat-events-from-stream.js";

/** What one turn starts from: a user message, a user message that loads a skill first, or the answers to interrupts. */
export type ChatTurnInput =
  | string
  | { text: string; invokeSkill?: string }
  | { resume: Record<string, unknown> | unknown };

/** An interrupt the thread waits on (e.g. a shell approval request), with the id its answer is keyed by. */
export interface PendingInterrupt {
  id: string | undefined;
  value: unknown;
}

/** The system prompt the chat agent starts from; the skills middleware appends the skills list. */
export const DEFAULT_CHAT_SYSTEM_PROMPT =
  "You are a helpful assistant in a terminal. When a listed skill covers the user's task, load it with read_skill before answering and follow its instructions. Answer concisely in markdown.";

/** Options of `createChatAgent`. */
export interface ChatAgentOptions {
  /** Any chat model that supports tool calling (ChatOpenAI in the CLI; a fake model in tests). */
  model: BaseChatModel;
  /** The skills the agent can load (a registry or a view of one). */
  skills: SkillCatalog;
  /** @default DEFAULT_CHAT_SYSTEM_PROMPT */
  systemPrompt?: string;
  /** Extra tools available from the start. */
  tools?: readonly StructuredToolInterface[];
  /** Further skills middleware options (skill-owned tools, hooks such as @skillgraph/shell, load modes, ...). */
  skillsOptions?: Omit<SkillsRuntimeOptions, "skills">;
  /** Where conversation and loaded-skill state is kept between turns. @default an in-memory saver (lost on exit) */
  checkpointer?: BaseCheckpointSaver;
  /** The conversation thread (a session name when persisted). @default a random UUID */
  threadId?: string;
}

/** A chat session: send turns, get their events as they happen. */
export interface ChatAgent {
  readonly threadId: string;
  /** The compiled graph (for callers that want to stream, invoke or inspect it themselves). */
  readonly agent: ReturnType<typeof buildChatGraph>;
  /**
   * Runs one user turn (or resumes interrupts with `{ resume }`); yields answer tokens, tool calls, tool results and skill
   * events in order. `{ text, invokeSkill }` loads that skill with a real `read_skill` call before the model runs.
   */
  turn(input: ChatTurnInput, options?: { signal?: AbortSignal }): AsyncGenerator<ChatEvent>;
  /** Interrupts the thread is waiting on (approval requests); answer them with `turn({ resume })`. */
  pendingInterrupts(): Promise<PendingInterrupt[]>;
  /** Answers tool calls left without a result (a cancelled run) with a "cancelled" ToolMessage; returns how many. */
  repairCancelledToolCalls(): Promise<number>;
}

/**
 * The graph behind `skillgraph chat`: a model node and a gated tool node from the SkillsInterceptor, with the delta
 * messages channel (each checkpoint stores the step's new messages, not the whole history: long sessions stay small).
 */
function buildChatGraph(options: ChatAgentOptions) {
  const tools = [...(options.tools ?? [])];
  const skills = createSkillsInterceptor({ ...options.skillsOptions, skills: options.skills });
  const State = Annotation.Root({ messages: messagesDeltaChannel(), ...skills.stateSpec });
  return new StateGraph(State)
    .addNode(
      "agent",
      skills.callModel(options.model, { systemPrompt: options.systemPrompt ?? DEFAULT_CHAT_SYSTEM_PROMPT, tools }),
    )
    .addNode("tools", skills.toolNode(tools))
    .addNode("end_turn", skills.endTurn())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: "end_turn" })
    .addEdge("tools", "agent")
    .addEdge("end_turn", END)
    .compile({ checkpointer: options.checkpointer ?? new MemorySaver() });
}

/**
 * The exact system message `skillgraph chat` sends on a new thread (its system prompt, the skills preamble and the
 * budgeted skills list), computed by the same interceptor without calling a model. `skillgraph prompt --chat` prints it.
 */
export async function previewChatSystemText(
  options: Pick<ChatAgentOptions, "skills" | "systemPrompt" | "skillsOptions" | "tools">,
): Promise<string> {
  const skills = createSkillsInterceptor({ ...options.skillsOptions, skills: options.skills });
  const request = await skills.prepareModelRequest(
    { messages: [] },
    { configurable: { thread_id: "skillgraph-prompt-preview" } },
    {
      systemPrompt: options.systemPrompt ?? DEFAULT_CHAT_SYSTEM_PROMPT,
      tools: [...(options.tools ?? [])],
    },
  );
  return request.systemText;
}

/**
 * The agent behind `skillgraph chat`: the SkillsInterceptor in a hand-built graph on the delta messages channel,
 * streamed with `["messages", "custom", "updates"]`.
 * @example
 * const chat = createChatAgent({ model: createChatModel(endpoint), skills: await createSkillRegistry({ sources }) });
 * for await (const event of chat.turn("Write release notes for v2")) if (event.type === "token") process.stdout.write(event.text);
 */
export function createChatAgent(options: ChatAgentOptions): ChatAgent {
  const threadId = options.threadId ?? randomUUID();
  const agent = buildChatGraph(options);
  return {
    threadId,
    agent,
    async *turn(input, turnOptions = {}) {
      const context = createChatStreamContext();
      const config = { configurable: { thread_id: threadId } };
      // Calls and results already on the thread (a resumed session) are history, not news.
      const existing = (await agent.getState(config)).values as { messages?: unknown[] } | undefined;
      seedChatStreamContext(context, existing?.messages ?? []);
      let graphInput: unknown;
      if (typeof input === "object" && input !== null && "resume" in input) {
        graphInput = new Command({ resume: input.resume });
      } else {
        const text = typeof input === "string" ? input : input.text;
        const skill = typeof input === "string" ? undefined : input.invokeSkill;
        if (skill === undefined) {
          graphInput = { messages: [new HumanMessage(text)] };
        } else {
          // Explicit invocation: the user's message, then a read_skill call run by the real tool node before the model.
          const call = {
            id: `explicit-${randomUUID()}`,
            name: "read_skill",
            args: { name: skill },
            type: "tool_call" as const,
          };
          await agent.updateState(
            config,
            { messages: [new HumanMessage(text), new AIMessage({ content: "", tool_calls: [call] })] },
            "agent",
          );
          graphInput = null;
        }
      }
      const stream = await agent.stream(graphInput as never, {
        ...config,
        streamMode: ["messages", "custom", "updates"],
        signal: turnOptions.signal,
        recursionLimit: 50,
      });
      for await (const [mode, chunk] of stream as AsyncIterable<["messages" | "custom" | "updates", unknown]>) {
        yield* chatEventsFromStream(mode, chunk, context);
      }
    },
    async pendingInterrupts() {
      const state = await agent.getState({ configurable: { thread_id: threadId } });
      return (state.tasks ?? []).flatMap((task) =>
        (task.interrupts ?? []).map((entry) => ({ id: (entry as { id?: string }).id, value: entry.value })),
      );
    },
    async repairCancelledToolCalls() {
      const config = { configurable: { thread_id: threadId } };
      const state = await agent.getState(config);
      if ((state.tasks ?? []).some((task) => (task.interrupts ?? []).length > 0)) return 0;
      // @skillgraph/langgraph's repair: one "cancelled" ToolMessage per unanswered call, with stable ids.
      const { repairs } = repairDanglingToolCalls(
        (state.values as { messages?: BaseMessage[] } | undefined)?.messages ?? [],
      );
      if (repairs.length === 0) return 0;
      await agent.updateState(config, { messages: repairs }, "tools");
      return repairs.length;
    },
  };
}
