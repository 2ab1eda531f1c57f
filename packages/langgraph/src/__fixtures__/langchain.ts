// LangChain names the shared suite in test/suites needs (the repository root has no LangChain dependency of its own).
export { HumanMessage, type BaseMessage } from "@langchain/core/messages";
export type { RunnableConfig } from "@langchain/core/runnables";
export type { StructuredToolInterface } from "@langchain/core/tools";
export { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
export { Annotation, END, MessagesAnnotation, Send, START, StateGraph } from "@langchain/langgraph";
export { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
export { createAgent, createMiddleware } from "langchain";
export { tool } from "@langchain/core/tools";
export { z } from "zod";
export { AIMessage, RemoveMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
export { Command, emptyCheckpoint, interrupt } from "@langchain/langgraph";
