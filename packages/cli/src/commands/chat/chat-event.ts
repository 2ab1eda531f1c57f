/** One thing that happened during a chat turn, in the order it happened. */
export type ChatEvent =
  /** A piece of the assistant's answer text. */
  | { type: "token"; text: string }
  /** The model asked for a tool (arguments complete). */
  | { type: "tool-call"; id: string | undefined; name: string; args: Record<string, unknown> }
  /** A tool answered. */
  | { type: "tool-result"; id: string | undefined; name: string; content: string; isError: boolean }
  /** A skill event from the skills runtime's custom stream (`{ skillgraph: event }`). */
  | {
      type: "skill";
      event: {
        type: string;
        skill?: string;
        tool?: string;
        tools?: string[];
        path?: string;
        reason?: string;
        agentId?: string;
      };
    };
