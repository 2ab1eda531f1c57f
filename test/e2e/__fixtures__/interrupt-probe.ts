// Whether the SkillsInterceptor's tool node lets LangGraph's interrupt() pause the graph (issue 10.1): a real graph
// with a tool that interrupts, run once; true when the thread then waits on the interrupt.
import { tool } from "@langchain/core/tools";
import { AIMessage } from "@langchain/core/messages";
import { Annotation, END, interrupt, MemorySaver, START, StateGraph, messagesStateReducer } from "@langchain/langgraph";
import { createSkillRegistry, skillsFromCode } from "../../../packages/core/src/index.js";
import { createSkillsInterceptor } from "../../../packages/langgraph/src/index.js";

/** Runs the probe graph; true when interrupt() paused it instead of becoming an error ToolMessage. */
export async function interceptorToolNodePausesOnInterrupt(): Promise<boolean> {
  const ask = tool(async () => String(interrupt({ question: "ok?" })), { name: "ask", description: "asks", schema: { type: "object", properties: {} } });
  const skills = createSkillsInterceptor({ skills: await createSkillRegistry({ sources: [skillsFromCode([], { id: "none" })] }) });
  const State = Annotation.Root({ messages: Annotation<unknown[]>({ reducer: messagesStateReducer as never, default: () => [] }), ...skills.stateSpec });
  const graph = new StateGraph(State)
    .addNode("tools", skills.toolNode([ask]) as never)
    .addEdge(START, "tools")
    .addEdge("tools", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "probe" } };
  try {
    await graph.invoke({ messages: [new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "ask", args: {} }] })] } as never, config);
  } catch {
    return false;
  }
  const state = await graph.getState(config);
  return (state.tasks ?? []).some((task) => (task.interrupts ?? []).length > 0);
}
