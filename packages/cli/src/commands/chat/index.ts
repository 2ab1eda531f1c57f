import { parseArgs } from "node:util";
import { createSkillRegistry } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { createStyle } from "../../output/style.js";
import { skillSourcesFromArgs } from "../../skill-sources-from-args.js";
import { NO_ENDPOINT_MESSAGE, resolveChatEndpoint } from "./chat-endpoint.js";
import { createChatRenderer } from "./chat-renderer.js";
import { runChatRepl } from "./chat-repl.js";
import { createChatAgent } from "./create-chat-agent.js";
import { createChatModel } from "./create-chat-model.js";
import { runChatTurn } from "./run-chat-turn.js";
import { openChatSession } from "./open-chat-session.js";
import { acquireSessionLease, closeCheckpointer, type SessionLease } from "@skillgraph/checkpoint";
import { UsageError } from "../../usage-error.js";

export const usage =
  "skillgraph chat [-p PROMPT] [--skills DIR]... [--session NAME] [--checkpoint URL | --ephemeral] [--model NAME] [--base-url URL] [--system TEXT] [--quiet]";

/** Where chat sessions live unless --checkpoint or SKILLGRAPH_CHECKPOINT says otherwise. */
export const DEFAULT_SESSIONS_URL = "sqlite:.skillgraph/sessions.db";

/**
 * `skillgraph chat`: an agent over the skills, talking to any OpenAI-compatible endpoint (OPENAI_BASE_URL / OPENAI_API_KEY).
 * With `-p` answers one prompt and exits; otherwise an interactive loop. Answers stream to stdout; skill loads and tool calls go to stderr.
 * Exit codes: 0 ok, 1 model call failed, 2 usage error or no endpoint configured.
 */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      prompt: { type: "string", short: "p" },
      skills: { type: "string", multiple: true },
      source: { type: "string", multiple: true },
      model: { type: "string" },
      "base-url": { type: "string" },
      system: { type: "string" },
      quiet: { type: "boolean", short: "q" },
      session: { type: "string" },
      checkpoint: { type: "string" },
      ephemeral: { type: "boolean" },
    },
  });
  if (values.ephemeral && (values.session !== undefined || values.checkpoint !== undefined)) throw new UsageError("--ephemeral cannot be combined with --session or --checkpoint");
  const endpoint = resolveChatEndpoint({ baseURL: values["base-url"], model: values.model }, io.env);
  if (!endpoint) {
    io.stderr.write(NO_ENDPOINT_MESSAGE);
    return 2;
  }
  const skills = await createSkillRegistry({ sources: skillSourcesFromArgs([...(values.skills ?? []), ...(values.source ?? [])], io.cwd, io.env) });
  const style = createStyle(io.color);
  // Every chat is a checkpointed session (SQLite by default) unless --ephemeral: resume it with --session NAME.
  const session = values.ephemeral ? undefined : await openChatSession(values.session, values.checkpoint ?? io.env.SKILLGRAPH_CHECKPOINT ?? DEFAULT_SESSIONS_URL, io.cwd);
  let lease: SessionLease | undefined;
  try {
    // One writer per session: a second `chat --session NAME` gets SessionBusyError (exit 1), never a lost turn.
    if (session) lease = await acquireSessionLease(session.checkpointer, session.name);
    const agent = createChatAgent({
      model: createChatModel(endpoint),
      skills,
      ...(values.system === undefined ? {} : { systemPrompt: values.system }),
      ...(session && lease ? { checkpointer: lease.protect(session.checkpointer), threadId: session.name } : {}),
    });
    const renderer = createChatRenderer(io, { quiet: values.quiet === true });
    if (session && !values.quiet) {
      io.stderr.write(`${style.dim(`session ${session.name} (${session.resumed ? "resumed" : "new"}; resume with --session ${session.name})`)}\n`);
    }
    if (values.prompt !== undefined) {
      const error = await runChatTurn(agent, values.prompt, renderer);
      if (error === undefined) return 0;
      io.stderr.write(`${style.red(`Error: ${error}`)}\n`);
      return 1;
    }
    if (!values.quiet) {
      const names = skills.list().map((skill) => skill.name);
      io.stderr.write(`${style.dim(`skillgraph chat: ${endpoint.model} at ${endpoint.baseURL ?? "api.openai.com"}; ${names.length} skill${names.length === 1 ? "" : "s"}${names.length > 0 ? ` (${names.join(", ")})` : ""}. /help for commands.`)}\n`);
    }
    return await runChatRepl(agent, skills, renderer, io);
  } finally {
    await lease?.release();
    if (session) await closeCheckpointer(session.checkpointer);
  }
}
