import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One scripted reply: text and/or tool calls (a fresh AIMessage is built per call). */
export interface ScriptedReply {
  content?: string;
  toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
}

/** What the model received on one call. */
export interface RecordedCall {
  /** Text of the system message ("" when none). */
  system: string;
  /** Non-system messages as sent. */
  messages: BaseMessage[];
  /** Names of the bound tools, in order. */
  tools: string[];
}

interface RecordingCallOptions extends BaseChatModelCallOptions {
  tools?: Array<{ name?: string; function?: { name: string } }>;
}

/**
 * A scripted chat model that records every request (messages AND bound tools) and replays replies in order. Its ids
 * are those of the worst real endpoints: every reply has the same message id and its calls are numbered per reply
 * (`call_0`, `call_1`, ...), so ids repeat across replies as they do with a restarted or per-response-numbering server.
 */
export class RecordingChatModel extends BaseChatModel<RecordingCallOptions> {
  readonly calls: RecordedCall[] = [];
  private next = 0;

  constructor(private readonly script: ScriptedReply[]) {
    super({});
  }

  _llmType(): string {
    return "recording";
  }

  override bindTools(tools: unknown[]) {
    return this.withConfig({ tools } as Partial<RecordingCallOptions>);
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const system = messages.filter((message) => message.getType() === "system").map((message) => message.text).join("\n");
    const tools = (options.tools ?? []).map((tool) => tool.name ?? tool.function?.name ?? "?");
    this.calls.push({ system, messages: messages.filter((message) => message.getType() !== "system"), tools });
    const reply = this.script[this.next++] ?? { content: "done" };
    const message = new AIMessage({
      id: "chatcmpl-1",
      content: reply.content ?? "",
      tool_calls: (reply.toolCalls ?? []).map((call, position) => ({
        name: call.name,
        args: call.args,
        id: `call_${position}`,
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ message, text: reply.content ?? "" }] };
  }

  /** The last request received. */
  get last(): RecordedCall {
    const call = this.calls[this.calls.length - 1];
    if (!call) throw new Error("the model was not called");
    return call;
  }
}

/** A reply calling one tool. */
export function callTool(name: string, args: Record<string, unknown> = {}): ScriptedReply {
  return { toolCalls: [{ name, args }] };
}

/** A final text reply. */
export function answer(content = "done"): ScriptedReply {
  return { content };
}
