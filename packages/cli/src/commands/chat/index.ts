import type { AgentFile } from "@skillgraph/core/agent-file";
import { acquireSessionLease, closeCheckpointer, type SessionLease } from "@skillgraph/checkpoint";
import { checkedOptions } from "../../io/checked-options.js";
import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { flagsHelp, flagsUsage } from "../../io/flag-table.js";
import { loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { loadAgentFileOrNamed } from "../agents/agent-store.js";
import { chatSettings, skillsOptionsFor } from "./chat-agent-settings.js";
import { NO_ENDPOINT_MESSAGE } from "./chat-endpoint.js";
import { writeRepairedNotice, writeReplGreeting, writeSkillsNotice, writeStartNotices } from "./chat-notices.js";
import { chatFlags, chatOptionsSchema, readChatFlags } from "./chat-options.js";
import { createChatRenderer } from "./chat-renderer.js";
import { runChatRepl } from "./chat-repl.js";
import { createChatShell } from "./chat-shell.js";
import { openChatStorage } from "./chat-storage.js";
import { createChatAgent } from "./create-chat-agent.js";
import { createChatModel } from "./create-chat-model.js";
import { rememberedNotice, rememberSetup, setupOfFlags, withRememberedSetup } from "./remembered-session.js";
import { oneShotInput, runOneShotChat } from "./run-one-shot-chat.js";

export { DEFAULT_TIMEOUT_SECONDS } from "./chat-options.js";

export const usage = flagsUsage("chat", chatFlags);

export const help: CommandHelp = {
  summary:
    "Chat with an agent over your skills through any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY; " +
    "with a base URL and no key a placeholder key is sent, as Ollama, vLLM and llama.cpp expect). Answers go to stdout, " +
    "activity (skills, tools, spinner) to stderr.",
  options: flagsHelp(chatFlags),
  notes: [
    "In a session: $name or /name at the start of a message loads that skill first; /skills lists skills; /help; /exit.",
    "A skill's own scripts (allowed by its allowed-tools) run without asking; other commands ask y / n / always.",
    "Exit codes: 0 ok, 1 model call failed or bad skills folder, 2 usage error or no endpoint configured.",
  ],
  examples: [
    "OPENAI_BASE_URL=http://localhost:11434/v1 SKILLGRAPH_MODEL=llama3.1 skillgraph chat --skills examples/skills",
    "skillgraph chat --skills examples/skills -p '$report-builder summarise data.csv' --approve-all > answer.md",
  ],
};

/**
 * `skillgraph chat`: an agent over the skills, talking to any OpenAI-compatible endpoint (OPENAI_BASE_URL / OPENAI_API_KEY).
 * With `-p` answers one prompt and exits; otherwise an interactive loop. Answers stream to stdout; skill loads and tool calls go to stderr.
 * Exit codes: 0 ok, 1 model call failed, 2 usage error or no endpoint configured.
 */
export async function run(args: string[], io: CliIO): Promise<number> {
  // a resumed session without --skills / --agent gets the ones it was started with
  const { flags, remembered } = await withRememberedSetup(readChatFlags(args), io);
  const agentFile: AgentFile | undefined =
    flags.agent === undefined ? undefined : await loadAgentFileOrNamed(flags.agent, io);
  const options = checkedOptions(chatOptionsSchema, flags);
  const settings = chatSettings(options, agentFile, io.env);
  const { endpoint } = settings;
  if (!endpoint) {
    io.stderr.write(NO_ENDPOINT_MESSAGE);
    return 2;
  }
  if (endpoint.warning) io.stderr.write(endpoint.warning);
  const skills = await loadSkillsFromArgs(settings.skillFolders, io, { verbose: options.verbose });
  const input = oneShotInput(options.prompt, skills);
  const { session, workspaceRoot } = await openChatStorage(options, agentFile, io);
  if (session) await rememberSetup(workspaceRoot, setupOfFlags(flags, io));
  const shell = createChatShell(skills, {
    ...settings.shell,
    ...(workspaceRoot ? { workspaceRoot } : {}),
  });
  const where = { baseURL: endpoint.baseURL, timeoutMs: options.timeoutMs };
  let lease: SessionLease | undefined;
  try {
    // One writer per session: a second `chat --session NAME` gets SessionBusyError (exit 1), never a lost turn.
    if (session) lease = await acquireSessionLease(session.checkpointer, session.name);
    const { systemPrompt } = settings;
    const agent = createChatAgent({
      model: createChatModel(endpoint, settings.model),
      skills,
      skillsOptions: skillsOptionsFor(agentFile, shell),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      ...(session && lease ? { checkpointer: lease.protect(session.checkpointer), threadId: session.name } : {}),
    });
    const renderer = createChatRenderer(io, {
      quiet: options.quiet,
      ...(shell.hook ? { workspaceDir: shell.hook.workspacePath(agent.threadId) } : {}),
    });
    if (!options.quiet) writeStartNotices(io, { session, shell, skills });
    if (!options.quiet && remembered) io.stderr.write(rememberedNotice(remembered));
    if (input !== undefined) writeSkillsNotice(io, skills, options);
    const repaired = await agent.repairCancelledToolCalls();
    if (!options.quiet) writeRepairedNotice(io, repaired);
    if (input !== undefined) {
      const mode = settings.oneShotApproval;
      const chat = { agent, renderer, io, mode, json: options.json, endpoint: where, session };
      return await runOneShotChat(input, { ...chat, alwaysApproved: shell.alwaysApproved });
    }
    if (!options.quiet) writeReplGreeting(io, endpoint, skills);
    return await runChatRepl({ agent, skills, renderer }, io, {
      alwaysApproved: shell.alwaysApproved,
      endpoint: where,
    });
  } finally {
    await lease?.release();
    if (session) await closeCheckpointer(session.checkpointer);
    await shell.hook?.dispose?.();
  }
}
