// Shared pieces of the interceptor benchmarks: scripted agents with and without skills, request serialization.
import { join } from "node:path";
import { SHARED_DIR } from "../../test/support/shared-paths.js";
import {
  createAgent,
  createMiddleware,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  tool,
  ToolNode,
  toolsCondition,
  z,
  Annotation,
  type BaseMessage,
  type RunnableConfig,
} from "../../packages/langgraph/src/__fixtures__/langchain.js";
import {
  RecordingChatModel,
  type ScriptedReply,
} from "../../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import {
  createSkillsInterceptor,
  createSkillsMiddleware,
  type SkillsRuntimeOptions,
} from "../../packages/langgraph/src/index.js";
import { SkillsStateSchema } from "../../packages/langgraph/src/state/skills-state-schema.js";
import type { SkillRegistry } from "../../packages/core/src/index.js";
import { AIMessage, HumanMessage, ToolMessage } from "../../packages/langgraph/src/__fixtures__/langchain.js";
import { createSkillsEngine } from "../../packages/langgraph/src/engine/skills-engine.js";
import { prepareModelCall } from "../../packages/langgraph/src/engine/state-events.js";
import { buildModelRequest } from "../../packages/langgraph/src/engine/model-request.js";
import { resolveOptions } from "../../packages/langgraph/src/options/resolve-options.js";
import { applyAgentSkillsUpdate, emptyAgentSkillsState } from "../../packages/langgraph/src/state/skills-state.js";
import { median } from "./stats.js";

/** bench-peers' lib.mjs: the request serialization and prefix-stability definitions (README section e). */
export interface PeerLib {
  serializeRequest(request: { system: string; tools: string[]; messages: BaseMessage[] }): string;
  prefixStability(serializations: string[]): {
    mean: number;
    min: number;
    lengths: number[];
    pairs: Array<{ ratio: number; firstDifference: string }>;
  };
  pickSessionSkills(manifest: { skills: Array<{ name: string; source: string; bytes: number }> }, k?: number): string[];
  fullInjection(corpusDir?: string): { bodies: string; files: string };
}

/** Loads bench-peers/lib.mjs (the shared measurement definitions). */
export async function peerLib(): Promise<PeerLib> {
  return (await import(join(SHARED_DIR, "bench-peers/lib.mjs"))) as PeerLib;
}

/** The no-op tool of the tool loop. */
export const noop = tool(async () => "ok", {
  name: "noop",
  description: "Does nothing and returns ok.",
  schema: z.object({}),
});

/** A tool standing in for a real one (returns ok). */
export function stubTool(name: string) {
  return tool(async () => "ok", {
    name,
    description: `The ${name} tool.`,
    schema: z.object({ input: z.string().optional() }),
  });
}

const SYSTEM_PROMPT = "You are a helpful assistant.";

/**
 * The hand-built graph without skills: a model node and a tools node running the calls itself, or LangChain's
 * ToolNode as the tools node (what the interceptor's tool node wraps).
 */
export function buildPlainGraph(model: RecordingChatModel, checkpointer: MemorySaver | undefined, toolNode: boolean) {
  const runCalls = async (state: typeof MessagesAnnotation.State, config: RunnableConfig) => {
    const last = state.messages[state.messages.length - 1] as {
      tool_calls?: Array<{ name: string; args: Record<string, unknown>; id?: string }>;
    };
    return {
      messages: await Promise.all(
        (last.tool_calls ?? []).map((call) => noop.invoke({ ...call, type: "tool_call" }, config)),
      ),
    };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state: typeof MessagesAnnotation.State, config) => ({
      messages: [
        await model
          .bindTools([noop])
          .invoke([{ role: "system", content: SYSTEM_PROMPT } as never, ...state.messages], config),
      ],
    }))
    .addNode("tools", (toolNode ? new ToolNode([noop]) : runCalls) as typeof runCalls)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer });
}

/** A runnable agent: createAgent + middleware, or a hand-built graph + interceptor. */
export function buildAgent(
  kind: "middleware" | "interceptor",
  model: RecordingChatModel,
  skills: SkillsRuntimeOptions | undefined,
  checkpointer: MemorySaver | undefined,
) {
  const systemPrompt = SYSTEM_PROMPT;
  if (kind === "middleware")
    return buildMiddlewareAgent(model, skills ? [createSkillsMiddleware(skills)] : [], checkpointer);
  if (!skills) return buildPlainGraph(model, checkpointer, false);
  const interceptor = createSkillsInterceptor(skills);
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...interceptor.stateSpec });
  return new StateGraph(State)
    .addNode("agent", interceptor.callModel(model, { systemPrompt, tools: [noop] }))
    .addNode("tools", interceptor.toolNode([noop]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer });
}

/** Steps of a tool loop of `calls` model calls: the given first steps, then noop calls, then an answer. */
export function toolLoop(calls: number, first: ScriptedReply[] = []): ScriptedReply[] {
  const noops = Array.from({ length: calls - 1 - first.length }, () => ({ toolCalls: [{ name: "noop", args: {} }] }));
  return [...first, ...noops, { content: "done" }];
}

/**
 * The floor of a createAgent middleware, piece by piece: a middleware with the same shape as the skills middleware
 * that does nothing. Each piece adds one thing to the one before: a `wrapModelCall` that passes the request on, the
 * skills state channel (`stateSchema`), an `afterAgent` hook (a graph node), a `wrapToolCall` that passes the call on.
 * The skills middleware registers `afterAgent` only when a load mode is `turn` or `once`: with the benchmark's
 * `session` skills it has one node (one super-step and checkpoint per invoke) fewer than the whole no-op middleware.
 */
export const FLOOR_PIECES = ["wrapModelCall", "stateSchema", "afterAgent", "wrapToolCall"] as const;

/** One piece of the floor (see FLOOR_PIECES). */
export type FloorPiece = (typeof FLOOR_PIECES)[number];

/** The no-op middleware with every piece up to and including `piece`. */
export function floorMiddleware(piece: FloorPiece) {
  const upTo = FLOOR_PIECES.indexOf(piece);
  return createMiddleware({
    name: "FloorMiddleware",
    wrapModelCall: (request, handler) => handler(request),
    ...(upTo >= 1 ? { stateSchema: SkillsStateSchema } : {}),
    ...(upTo >= 2 ? { afterAgent: () => undefined } : {}),
    ...(upTo >= 3 ? { wrapToolCall: (request, handler) => handler(request) } : {}),
  } as Parameters<typeof createMiddleware>[0]);
}

/** createAgent with the benchmark's model, tool and prompt, and the given middleware. */
export function buildMiddlewareAgent(
  model: RecordingChatModel,
  middleware: ReturnType<typeof createMiddleware>[],
  checkpointer: MemorySaver | undefined,
) {
  return createAgent({ model, tools: [noop], systemPrompt: SYSTEM_PROMPT, middleware, checkpointer });
}

/** What {@link engineRewriteMs} rewrites: the registry, the loaded skills, whether their read_skill results are in the history. */
export interface EngineRewriteInput {
  registry: SkillRegistry;
  loadedNames: readonly string[];
  withResults: boolean;
  iterations: number;
}

/**
 * The engine's request rewrite alone (prepareModelCall + buildModelRequest, no graph): median milliseconds to rewrite
 * one request of a 401-message conversation with `loadedNames` loaded (session mode).
 */
export async function engineRewriteMs({ registry, loadedNames, withResults, iterations }: EngineRewriteInput) {
  const engine = createSkillsEngine(resolveOptions({ skills: registry, loadMode: "session" }));
  let state = emptyAgentSkillsState();
  for (const name of loadedNames)
    state = applyAgentSkillsUpdate(state, {
      events: [{ type: "load", name, mode: "session", hash: registry.get(name)!.hash, seq: state.load.seq + 1 }],
    });
  const results = withResults
    ? loadedNames.flatMap((name, index) => [
        new AIMessage({ content: "", tool_calls: [{ name: "read_skill", args: { name }, id: `read-${index}` }] }),
        new ToolMessage({
          content: `Skill '${name}' loaded.`,
          tool_call_id: `read-${index}`,
          name: "read_skill",
          artifact: {
            skillgraph: { kind: "skill-body", agentId: "default", skill: name, hash: registry.get(name)!.hash },
          },
        }),
      ])
    : [];
  const steps = Array.from({ length: 400 - results.length }, (_, index) => new AIMessage(`step ${index}`));
  const messages = [new HumanMessage("go"), ...results, ...steps];
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const prepared = prepareModelCall(state, messages, registry, engine.options);
    await buildModelRequest(engine, {
      state: prepared.state,
      catalog: registry,
      systemText: SYSTEM_PROMPT,
      messages,
      tools: [noop],
    });
    samples.push(performance.now() - start);
  }
  return median(samples.slice(10));
}
