import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { settledReplyRecord, type RefusedCall } from "./settle-model-reply.js";

const RAW_ARGUMENTS_SHOWN = 400;

/**
 * The refusal recorded for tool call `callId` on the AI message that made it (the latest AI message holding that
 * call, searched from the end: the pending calls are near it), or undefined when the call may run.
 */
export function refusedCall(messages: readonly BaseMessage[], callId: string | undefined): RefusedCall | undefined {
  if (callId === undefined) return undefined;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.getType() !== "ai") continue;
    const calls = (message as { tool_calls?: Array<{ id?: string }> }).tool_calls ?? [];
    if (!calls.some((call) => call.id === callId)) continue;
    return settledReplyRecord(message)?.refusedCalls?.[callId];
  }
  return undefined;
}

/** The error answer to a refused call: what went wrong and how to call again. */
export function refusedCallMessage(refusal: RefusedCall, call: { id?: string; name: string }): ToolMessage {
  const sent =
    refusal.rawArguments === undefined
      ? ""
      : ` You sent: ${refusal.rawArguments.slice(0, RAW_ARGUMENTS_SHOWN)}${refusal.rawArguments.length > RAW_ARGUMENTS_SHOWN ? "…" : ""}`;
  const content =
    refusal.reason === "cut-off"
      ? `Tool call '${call.name}' was not run: your reply was cut off by the output token limit (finish reason '${refusal.detail}') before this call was complete, so its arguments may be incomplete. Call it again, with shorter arguments if needed.${sent}`
      : `Tool call '${call.name}' was not run: its arguments are not valid JSON (${refusal.detail}).${sent} Call it again with the arguments as one JSON object.`;
  return new ToolMessage({ content, tool_call_id: call.id ?? "", name: call.name, status: "error" });
}
