// @skillgraph/langgraph/repair: answer tool calls a cancelled run left without a result, so the thread can continue.
export { cancelledToolMessageId, repairDanglingToolCalls } from "./repair/repair-dangling-tool-calls.js";
export type { RepairedHistory } from "./repair/repair-dangling-tool-calls.js";
