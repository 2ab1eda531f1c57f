import { DeltaChannel, messagesDeltaReducer } from "@langchain/langgraph";

/** Options of `messagesDeltaChannel`. */
export interface MessagesDeltaChannelOptions {
  /** Store a full snapshot after this many updates of the channel (bounds the ancestor walk on resume and what pruning must keep). @default 50 */
  snapshotFrequency?: number;
}

/** The channel type: accumulated messages in, message updates (one or a list per write) accepted. */
export type MessagesDeltaChannel = DeltaChannel<
  ReturnType<typeof messagesDeltaReducer>,
  Parameters<typeof messagesDeltaReducer>[1][number]
>;

/**
 * A `messages` state channel that stores each step's new messages instead of the whole history in every checkpoint
 * (LangGraph 1.7's beta DeltaChannel with `messagesDeltaReducer`), so storage grows with the messages, not turns x history.
 * @example
 * const State = Annotation.Root({ messages: messagesDeltaChannel(), skills: Annotation({ reducer: createLoadStateReducer(), default: emptyLoadState }) });
 */
export function messagesDeltaChannel(options: MessagesDeltaChannelOptions = {}): MessagesDeltaChannel {
  return new DeltaChannel(messagesDeltaReducer, { snapshotFrequency: options.snapshotFrequency ?? 50 });
}
