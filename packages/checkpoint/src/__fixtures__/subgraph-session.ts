// A parent graph whose "review" node is a compiled subgraph that asks for approval with interrupt(): its checkpoints live
// in their own namespace (`review:<taskId>`), which pruning must keep for the resume to find the pending interrupt.
import { Annotation, END, interrupt, messagesStateReducer, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";

const State = Annotation.Root({ messages: Annotation<unknown[]>({ reducer: messagesStateReducer as never, default: () => [] }) });
type S = typeof State.State;

/** Hooks into the subgraph: `onCheck` runs each time its first node runs, `beforeAsk` is awaited before it asks. */
export interface SubgraphSessionHooks {
  onCheck?: () => void;
  beforeAsk?: () => Promise<void>;
}

/** The parent graph over `checkpointer`; each run adds a draft, then the subgraph asks "ship it?" and records the answer. */
export function buildSubgraphSession(checkpointer: BaseCheckpointSaver, hooks: SubgraphSessionHooks = {}) {
  const review = new StateGraph(State)
    .addNode("check", (state: S) => {
      hooks.onCheck?.();
      return { messages: [{ role: "assistant", content: `checked ${state.messages.length}`, id: `check-${state.messages.length}` }] };
    })
    .addNode("ask", async (state: S) => {
      await hooks.beforeAsk?.();
      const answer = interrupt({ question: "ship it?" });
      return { messages: [{ role: "assistant", content: `answer: ${String(answer)}`, id: `answer-${state.messages.length}` }] };
    })
    .addEdge(START, "check")
    .addEdge("check", "ask")
    .addEdge("ask", END)
    .compile();
  return new StateGraph(State)
    .addNode("draft", (state: S) => ({ messages: [{ role: "assistant", content: "draft", id: `draft-${state.messages.length}` }] }))
    .addNode("review", review)
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", END)
    .compile({ checkpointer });
}
