import type { CliIO } from "../../io/cli-io.js";
import { terminalSafe, terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatEvent } from "./chat-event.js";
import type { ChatRenderer } from "./chat-renderer.js";

/** One tool call of a one-shot run, with its result once it came. */
export interface OneShotToolCall {
  name: string;
  args: Record<string, unknown>;
  result?: string;
  isError?: boolean;
}

/** Token counts summed over the run's model calls (as the endpoint reported them). */
export interface OneShotUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** What `chat -p --json` prints. */
export interface OneShotResult {
  /** The final answer: the model's text after its last tool call. */
  answer: string;
  toolCalls: OneShotToolCall[];
  /** Skills loaded during the run, in order. */
  loadedSkills: string[];
  usage: OneShotUsage | null;
}

/** A renderer for `chat -p` that keeps the final answer apart from the model's text before its tool calls. */
export interface OneShotRenderer extends ChatRenderer {
  /** What the run produced so far. */
  result(usage: OneShotUsage | null): OneShotResult;
  /** Writes the final answer to stdout (buffered mode only; streamed answers are already out). */
  finish(): void;
  /** The run failed or ended without an answer: nothing goes to stdout; a streamed partial answer is marked as such. */
  abandon(): void;
}

/**
 * Wraps chat's renderer for a one-shot run. `mode`:
 * - `stream` (stdout is a terminal): as the REPL, tokens as they come;
 * - `final` (stdout redirected, e.g. `> answer.md`): text the model writes before a tool call is activity (stderr), and
 *   only the text after the last tool call, the answer, goes to stdout when the run ends;
 * - `json`: nothing but activity lines while it runs; the caller prints `result()` as JSON.
 */
export function createOneShotRenderer(
  base: ChatRenderer,
  io: Pick<CliIO, "stdout">,
  mode: "stream" | "final" | "json",
): OneShotRenderer {
  let segment = "";
  const toolCalls: OneShotToolCall[] = [];
  const byId = new Map<string, OneShotToolCall>();
  const loadedSkills: string[] = [];
  return {
    render(event: ChatEvent) {
      if (event.type === "token") {
        segment += event.text;
        if (mode === "stream") base.render(event);
        return;
      }
      if (event.type === "tool-call") {
        // The text so far was said on the way to a tool call, not the answer.
        if (mode === "final" && segment.trim() !== "")
          for (const line of segment.trim().split("\n")) base.notice(terminalSafeLine(line));
        segment = "";
        const call: OneShotToolCall = { name: event.name, args: event.args };
        toolCalls.push(call);
        if (event.id !== undefined) byId.set(event.id, call);
      } else if (event.type === "tool-result") {
        const call =
          (event.id !== undefined ? byId.get(event.id) : undefined) ?? toolCalls.findLast((c) => c.name === event.name);
        if (call) {
          call.result = event.content;
          call.isError = event.isError;
        }
      } else if (event.type === "skill" && event.event.type === "skill-loaded" && event.event.skill)
        loadedSkills.push(event.event.skill);
      base.render(event);
    },
    endTurn() {
      base.endTurn();
    },
    waiting() {
      base.waiting();
    },
    notice(line) {
      base.notice(line);
    },
    finish() {
      if (mode !== "final") return;
      base.endTurn();
      if (segment !== "") io.stdout.write(`${terminalSafe(segment)}${segment.endsWith("\n") ? "" : "\n"}`);
    },
    abandon() {
      base.endTurn();
      if (mode === "stream" && segment !== "") base.notice("(the answer above is incomplete)");
    },
    result(usage) {
      return { answer: segment, toolCalls, loadedSkills, usage };
    },
  };
}

interface UsageCarrier {
  type?: string;
  _getType?: () => string;
  usage_metadata?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
}

/** The thread's messages now (for counting what a run added). */
export async function threadMessages(agent: {
  threadId: string;
  agent: { getState(config: { configurable: { thread_id: string } }): Promise<{ values: unknown }> };
}): Promise<unknown[]> {
  const state = await agent.agent.getState({ configurable: { thread_id: agent.threadId } });
  const messages = (state.values as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? messages : [];
}

/** Token usage summed over the AI messages after the first `before` (null when the endpoint reported none). */
export function usageOf(messages: readonly unknown[], before: number): OneShotUsage | null {
  let found = false;
  const usage: OneShotUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const message of messages.slice(before) as UsageCarrier[]) {
    const metadata = message.usage_metadata;
    if (!metadata) continue;
    found = true;
    usage.inputTokens += metadata.input_tokens ?? 0;
    usage.outputTokens += metadata.output_tokens ?? 0;
    usage.totalTokens += metadata.total_tokens ?? (metadata.input_tokens ?? 0) + (metadata.output_tokens ?? 0);
  }
  return found ? usage : null;
}
