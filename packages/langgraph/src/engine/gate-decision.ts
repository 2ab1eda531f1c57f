import type { StructuredToolInterface } from "@langchain/core/tools";
import type { EngineToolCall } from "./engine-tool-call.js";

/** What the gate decided for one tool call. */
export type GateDecision =
  | { action: "skills-tool" }
  /** Run `call` (the inner call for a dispatcher call); `tool` is set when the interceptor serves the tool itself. */
  | { action: "run"; call: EngineToolCall; tool?: StructuredToolInterface; owner?: string }
  | { action: "block"; reason: string };
