import { settledReplyRecord } from "@skillgraph/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { textOf } from "./chat-events-from-stream.js";

/** How a finished run ended: with an answer (perhaps cut off), or without one and why. */
export type TurnOutcome = { answered: true; cutOff: boolean } | { answered: false; why: string };

interface MessageView {
  getType?: () => string;
  type?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string }>;
  tool_call_id?: string;
}

/**
 * What the run that added the messages after `before` ended with. A run ends with an answer when its last message is
 * a reply of the model with text and no calls; anything else (calls left unanswered, a tool result the model never
 * answered, an empty reply) is a run without an answer, which must not look like success.
 */
export function turnOutcome(messages: readonly unknown[], before: number): TurnOutcome {
  const added = messages.slice(before) as MessageView[];
  const last = added.at(-1);
  if (last === undefined) return { answered: false, why: "the run added nothing to the conversation" };
  const type = typeOf(last);
  if (type === "tool")
    return { answered: false, why: "the run ended after a tool result, before the model answered it" };
  if (type !== "ai")
    return { answered: false, why: `the run ended on a ${type ?? "non-model"} message, without a reply` };
  const calls = last.tool_calls ?? [];
  if (calls.length > 0)
    return {
      answered: false,
      why: `the run ended with ${calls.length} tool call${calls.length === 1 ? "" : "s"} of the model unanswered`,
    };
  const cutOff = settledReplyRecord(last as unknown as BaseMessage)?.cutOff === true;
  if (textOf(last.content).trim() === "")
    return {
      answered: false,
      why: cutOff
        ? "the model's reply was cut off by its output token limit before any text"
        : "the model's reply was empty",
    };
  return { answered: true, cutOff };
}

function typeOf(message: MessageView): string | undefined {
  return typeof message.getType === "function" ? message.getType() : message.type;
}
