// `skillgraph chat -p PROMPT`: one exchange, then exit. Only the final answer goes to stdout (streamed on a terminal),
// or with --json one object describing the whole run; Ctrl-C cancels the run (exit 130).
import type { SkillCatalog } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { writeCancelledNotice } from "./chat-notices.js";
import type { ChatAgent, ChatTurnInput } from "./create-chat-agent.js";
import { parseChatLine } from "./explicit-invocation.js";
import { createOneShotRenderer, threadMessages, usageOf } from "./one-shot-output.js";
import type { ChatSession } from "./open-chat-session.js";
import { runChatExchange, type ApprovalMode } from "./run-chat-exchange.js";
import { turnOutcome } from "./turn-outcome.js";

/** What a one-shot run needs besides its input. */
export interface OneShotChat {
  agent: ChatAgent;
  renderer: ChatRenderer;
  io: CliIO;
  /** How commands that need approval are answered (nobody is asked). */
  mode: ApprovalMode;
  json: boolean;
  endpoint: { baseURL: string | undefined; timeoutMs: number };
  alwaysApproved: Set<string>;
  /** The session, to say how to resume it after a cancel. */
  session: ChatSession | undefined;
}

/**
 * The prompt of `-p` as a turn: `$skill`/`/skill` at its start loads that skill first; undefined without `-p` (an
 * interactive session). A skill name that does not exist is a CliError naming the closest ones.
 */
export function oneShotInput(prompt: string | undefined, skills: SkillCatalog): ChatTurnInput | undefined {
  if (prompt === undefined) return undefined;
  const parsed = parseChatLine(prompt, skills);
  if (parsed.kind === "unknown-skill") {
    const hint = parsed.suggestions.length > 0 ? ` (did you mean ${parsed.suggestions.join(", ")}?)` : "";
    throw new CliError(`no skill named '${parsed.name}'${hint}`);
  }
  return parsed.kind === "invoke" ? { text: parsed.text, invokeSkill: parsed.skill } : parsed.text;
}

/** Runs the one exchange until it ends or Ctrl-C; the exit code: 0 answered, 1 the model call failed, 130 cancelled. */
export async function runOneShotChat(input: ChatTurnInput, chat: OneShotChat): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    const error = await answerOnce(input, chat, controller.signal);
    return await exitCodeOf(error, chat);
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

/**
 * The exchange, its answer written out (and the --json object); the error, if any. Only a run that ended with an
 * answer writes it: after a failure or a run without an answer, nothing partial reaches stdout (the --json object
 * says what happened instead).
 */
async function answerOnce(input: ChatTurnInput, chat: OneShotChat, signal: AbortSignal): Promise<string | undefined> {
  const { agent, io, json } = chat;
  const output = createOneShotRenderer(chat.renderer, io, json ? "json" : io.isTTY ? "stream" : "final");
  const before = (await threadMessages(agent)).length;
  let error = await runChatExchange(agent, input, output, {
    mode: chat.mode,
    signal,
    endpoint: chat.endpoint,
    alwaysApproved: chat.alwaysApproved,
  });
  const messages = error === undefined ? await threadMessages(agent) : [];
  const outcome = error === undefined ? turnOutcome(messages, before) : undefined;
  if (outcome && !outcome.answered) error = `no answer: ${outcome.why}`;
  if (error === undefined) output.finish();
  else output.abandon();
  if (outcome?.answered && outcome.cutOff)
    chat.io.stderr.write(
      `${createStyle(chat.io.color).yellow("warning: the answer was cut off by the endpoint's output token limit (finish reason 'length'); it may be incomplete")}\n`,
    );
  if (json && error !== "interrupted") {
    const result = output.result(usageOf(messages, before));
    const report = { ...result, answered: error === undefined, cutOff: outcome?.answered === true && outcome.cutOff };
    io.stdout.write(`${JSON.stringify(error === undefined ? report : { ...report, error })}\n`);
  }
  return error;
}

/** 0 without an error; 130 after a cancel (its open tool calls marked as cancelled); else the error on stderr and 1. */
async function exitCodeOf(error: string | undefined, chat: OneShotChat): Promise<number> {
  if (error === undefined) return 0;
  if (error === "interrupted") {
    await chat.agent.repairCancelledToolCalls();
    writeCancelledNotice(chat.io, chat.session);
    return 130;
  }
  chat.io.stderr.write(`${createStyle(chat.io.color).red(`error: ${terminalSafeLine(error)}`)}\n`);
  return 1;
}
