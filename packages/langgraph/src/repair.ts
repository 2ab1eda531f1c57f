// @skillgraph/langgraph/repair: make a stored history one a model accepts (answer tool calls a cancelled run left
// open, leave out results that answer no call, re-id repeated call ids per request) and report what is damaged in it.
export { cancelledToolMessageId, repairDanglingToolCalls } from "./repair/repair-dangling-tool-calls.js";
export type { RepairedHistory } from "./repair/repair-dangling-tool-calls.js";
export { inspectHistory } from "./repair/inspect-history.js";
export type { HistoryInspection, HistoryProblem, HistoryProblemCode } from "./repair/inspect-history.js";
export { renameRepeatedToolCallIds } from "./repair/rename-repeated-tool-call-ids.js";
export type { KeptToolCallId, RenamedToolCall, ToolCallIdRenaming } from "./repair/rename-repeated-tool-call-ids.js";
