// The graph `skillgraph chat` writes sessions with, opened on a stored session to read its messages as LangChain
// messages and to write repairs through the graph's own reducers. No model is ever called.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createSkillRegistry } from "@skillgraph/core";
import { CliError } from "../../io/cli-error.js";
import { createChatAgent } from "../chat/create-chat-agent.js";

/** A chat model placeholder: the sessions command builds the chat graph to read and repair state, never to answer. */
class NoModel extends BaseChatModel {
  _llmType(): string {
    return "skillgraph-sessions-no-model";
  }
  override bindTools(): this {
    return this;
  }
  async _generate(): Promise<ChatResult> {
    throw new CliError("skillgraph sessions opened the chat graph to read and repair state: it never calls a model");
  }
}

/** A stored session opened through the chat graph. */
export interface ChatSessionGraph {
  graph: ReturnType<typeof createChatAgent>["agent"];
  config: { configurable: { thread_id: string } };
  /** The session's messages at its newest checkpoint, as the chat graph reads them. */
  messages(): Promise<BaseMessage[]>;
  /** True when the session waits for an answer to an interrupt (an approval request). */
  waitsForInterrupt(): Promise<boolean>;
  /** State channels of the stored session that the chat graph does not have (a session another graph wrote). */
  foreignChannels(): Promise<string[]>;
  /** Writes stored under the newest checkpoint (tasks of an unfinished step that finished): a new checkpoint drops them. */
  pendingWrites(): Promise<number>;
}

/** Opens session `name` of `saver` (a lease-protected saver for writes) through the chat graph. */
export async function openChatSession(saver: BaseCheckpointSaver, name: string): Promise<ChatSessionGraph> {
  const skills = await createSkillRegistry({ sources: [] });
  const graph = createChatAgent({ model: new NoModel({}), skills, checkpointer: saver, threadId: name }).agent;
  const config = { configurable: { thread_id: name } };
  return {
    graph,
    config,
    async messages() {
      const state = await graph.getState(config);
      return ((state.values as { messages?: BaseMessage[] } | undefined)?.messages ?? []).slice();
    },
    async waitsForInterrupt() {
      const state = await graph.getState(config);
      return (state.tasks ?? []).some((task) => (task.interrupts ?? []).length > 0);
    },
    async pendingWrites() {
      const tuple = await saver.getTuple({ configurable: { thread_id: name, checkpoint_ns: "" } });
      return tuple?.pendingWrites?.length ?? 0;
    },
    async foreignChannels() {
      const tuple = await saver.getTuple({ configurable: { thread_id: name, checkpoint_ns: "" } });
      const known = new Set(Object.keys(graph.channels));
      return Object.keys(tuple?.checkpoint.channel_versions ?? {}).filter((channel) => !known.has(channel));
    },
  };
}
