// Graph `interceptor_graph`: a hand-built StateGraph with createSkillsInterceptor (model node, gated tool node, end of
// turn). Compiled without a checkpointer: the Agent Server supplies its own.
import { END, MessagesAnnotation, START, StateGraph, Annotation } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { createSkillsInterceptor } from "@skillgraph/langgraph";
import { createModel, loadMode, registry, shellHook } from "./shared.js";

const skills = createSkillsInterceptor({ skills: registry, hooks: [shellHook], loadMode });
const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });

export const graph = new StateGraph(State)
  .addNode(
    "agent",
    skills.callModel(createModel(), { systemPrompt: "You are a release manager. Use the matching skill." }),
  )
  .addNode("tools", skills.toolNode())
  .addNode("end_turn", skills.endTurn())
  .addEdge(START, "agent")
  .addConditionalEdges("agent", toolsCondition, { tools: "tools", [END]: "end_turn" })
  .addEdge("tools", "agent")
  .addEdge("end_turn", END)
  .compile();
