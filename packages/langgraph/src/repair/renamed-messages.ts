// Copies of messages with tool-call ids replaced: for the request (`repairDanglingToolCalls`) and for storage
// (`renameRepeatedToolCallIds`). Every other field is kept, the message id too (a stored copy replaces its original).
import { AIMessage, ToolMessage } from "@langchain/core/messages";

/** What happens to the provider's raw calls (`additional_kwargs.tool_calls`, OpenAI format) of a renamed AI message. */
export type RawToolCalls = "drop" | "rename";

/**
 * The AI message with call `k` under `ids[k]` (undefined: unchanged). Raw calls are dropped (a request: the parsed
 * calls are sent) or renamed where the raw call at the same position has the old id (storage: nothing is lost).
 */
export function aiMessageWithCallIds(
  message: AIMessage,
  ids: ReadonlyArray<string | undefined>,
  raw: RawToolCalls,
): AIMessage {
  const calls = message.tool_calls ?? [];
  const { tool_calls: rawCalls, ...additional } = message.additional_kwargs ?? {};
  // Without parsed calls, the raw ones are what a request carries: rename them by position, never drop them.
  const rawOnly = calls.length === 0;
  const renamedRaw =
    (raw === "rename" || rawOnly) && Array.isArray(rawCalls)
      ? {
          tool_calls: rawCalls.map((entry, index) =>
            ids[index] !== undefined && (rawOnly || entry?.id === calls[index]?.id)
              ? { ...entry, id: ids[index]! }
              : entry,
          ),
        }
      : raw === "rename" && rawCalls !== undefined
        ? { tool_calls: rawCalls }
        : {};
  return new AIMessage({
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: { ...additional, ...renamedRaw },
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
    invalid_tool_calls: message.invalid_tool_calls,
    tool_calls: calls.map((call, index) => ({ ...call, id: ids[index] ?? call.id })),
  });
}

/** The tool result answering `toolCallId` instead (itself when it already does). */
export function toolMessageWithCallId(message: ToolMessage, toolCallId: string): ToolMessage {
  if (message.tool_call_id === toolCallId) return message;
  return new ToolMessage({
    content: message.content,
    tool_call_id: toolCallId,
    name: message.name,
    id: message.id,
    artifact: message.artifact,
    status: message.status,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });
}
