import type { AIMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";

/** Something that answers messages (a fake model from @langchain/core/testing). */
interface ScriptedModel {
  invoke(messages: unknown): Promise<unknown>;
}

/**
 * The smallest real agent loop for tests: model node, LangGraph's own ToolNode, a checkpointer (interrupts need one).
 * @param tools the tools to serve (e.g. a shell hook's)
 * @param model a scripted model
 * @param state the state annotation (MessagesAnnotation, or one with more channels)
 */
export function toolLoopGraph(tools: StructuredToolInterface[], model: ScriptedModel, state: typeof MessagesAnnotation = MessagesAnnotation) {
  return new StateGraph(state)
    .addNode("agent", async (current) => ({ messages: [(await model.invoke(current.messages)) as AIMessage] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (current) => ((current.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END))
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver() });
}
