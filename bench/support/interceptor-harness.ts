// Shared pieces of the interceptor benchmarks: scripted agents with and without skills, request serialization.
import { join } from "node:path";
import { SHARED_DIR } from "../../test/support/shared-paths.js";
import {
  createAgent,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  tool,
  toolsCondition,
  z,
  Annotation,
  type BaseMessage,
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

/** A runnable agent: createAgent + middleware, or a hand-built graph + interceptor. */
export function buildAgent(
  kind: "middleware" | "interceptor",
  model: RecordingChatModel,
  skills: SkillsRuntimeOptions | undefined,
  checkpointer: MemorySaver | undefined,
) {
  const systemPrompt = "You are a helpful assistant.";
  if (kind === "middleware")
    return createAgent({
      model,
      tools: [noop],
      systemPrompt,
      middleware: skills ? [createSkillsMiddleware(skills)] : [],
      checkpointer,
    });
  if (!skills) {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state: typeof MessagesAnnotation.State, config) => ({
        messages: [
          await model
            .bindTools([noop])
            .invoke([{ role: "system", content: systemPrompt } as never, ...state.messages], config),
        ],
      }))
      .addNode("tools", async (state: typeof MessagesAnnotation.State, config) => {
        const last = state.messages[state.messages.length - 1] as {
          tool_calls?: Array<{ name: string; args: Record<string, unknown>; id?: string }>;
        };
        return {
          messages: await Promise.all(
            (last.tool_calls ?? []).map((call) => noop.invoke({ ...call, type: "tool_call" }, config)),
          ),
        };
      })
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, ["tools", END])
      .addEdge("tools", "agent");
    return graph.compile({ checkpointer });
  }
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
