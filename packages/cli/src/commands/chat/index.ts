import { parseArgs } from "node:util";
import type { AgentFile } from "@skillgraph/core/agent-file";
import { acquireSessionLease, closeCheckpointer, type SessionLease } from "@skillgraph/checkpoint";
import type { CliIO } from "../../cli-io.js";
import { CliError } from "../../cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { SESSIONS_URL_HELP, sessionsUrl } from "../../sessions-url.js";
import { loadSkillsFromArgs } from "../../skill-sources-from-args.js";
import { UsageError } from "../../usage-error.js";
import { loadAgentFileOrNamed, modelParameters } from "../agents/agent-store.js";
import { agentFileEndpoint, NO_ENDPOINT_MESSAGE, resolveChatEndpoint } from "./chat-endpoint.js";
import { createChatRenderer } from "./chat-renderer.js";
import { runChatRepl } from "./chat-repl.js";
import { createChatShell } from "./chat-shell.js";
import { createChatAgent } from "./create-chat-agent.js";
import { createChatModel } from "./create-chat-model.js";
import { createOneShotRenderer, threadMessages, usageOf } from "./one-shot-output.js";
import { parseChatLine } from "./explicit-invocation.js";
import { openChatSession } from "./open-chat-session.js";
import { runChatExchange } from "./run-chat-exchange.js";
import { sessionWorkspaceRoot } from "../../session-workspaces.js";

export const usage =
  "skillgraph chat [-p PROMPT] [--skills DIR]... [--session NAME] [--checkpoint URL | --ephemeral] [--model NAME] [--base-url URL] " +
  "[--system TEXT] [--agent FILE|NAME] [--timeout SECONDS] [--approve-all | --deny-all] [--unsafe-local] [--shell] [--quiet] [--verbose] [--json]";

/** Seconds one model request may take before chat gives up on it. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

export const help: CommandHelp = {
  summary:
    "Chat with an agent over your skills through any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY; " +
    "with a base URL and no key a placeholder key is sent, as Ollama, vLLM and llama.cpp expect). Answers go to stdout, " +
    "activity (skills, tools, spinner) to stderr.",
  options: [
    {
      flags: "-p, --prompt TEXT",
      description:
        "answer one prompt and exit (otherwise an interactive session); stdout gets only the final answer (the text after the last tool call) unless it is a terminal",
      default: "interactive",
    },
    {
      flags: "--json",
      description: "with -p: print { answer, toolCalls, loadedSkills, usage } as one JSON object",
      default: "off",
    },
    {
      flags: "--skills DIR",
      description: "read skills from DIR (repeatable)",
      default: "the conventional skill folders",
    },
    {
      flags: "--session NAME",
      description: "resume (or start) the named session",
      default: "a new time-stamped session",
    },
    SESSIONS_URL_HELP,
    { flags: "--ephemeral", description: "keep nothing (no session)", default: "off" },
    { flags: "--model NAME", description: "model name", default: "$SKILLGRAPH_MODEL or gpt-4o-mini" },
    {
      flags: "--base-url URL",
      description: "OpenAI-compatible endpoint",
      default: "$OPENAI_BASE_URL or api.openai.com",
    },
    {
      flags: "--system TEXT",
      description: "the agent's system prompt (the skills list is appended)",
      default: "a short terminal-assistant prompt",
    },
    {
      flags: "--agent FILE",
      description:
        "a declarative agent (skillgraph.agent.yaml, a package.json 'skillgraph' key or an Ollama-style Agentfile), or the NAME of one saved with 'skillgraph agents create'; flags win over it",
      default: "none",
    },
    {
      flags: "--trust-agent-endpoint",
      description: "send OPENAI_API_KEY to the agent file's model.baseUrl",
      default: "off: that endpoint gets a placeholder key, with a warning",
    },
    {
      flags: "--timeout SECONDS",
      description: "give up on a model call after this long (wall clock: every retry included)",
      default: String(DEFAULT_TIMEOUT_SECONDS),
    },
    { flags: "--approve-all", description: "one-shot: run every command that needs approval", default: "off" },
    {
      flags: "--deny-all",
      description: "one-shot: refuse every command that needs approval",
      default: "refuse, with a notice naming --approve-all",
    },
    {
      flags: "--unsafe-local",
      description: "without bubblewrap, run skill scripts on this machine unsandboxed",
      default: "off: no bubblewrap, no scripts",
    },
    {
      flags: "--shell",
      description: "offer the shell tool on every turn (tama's bash), not only once a skill that uses it is loaded",
      default: "off (or the agent file's shell.alwaysOn)",
    },
    { flags: "-q, --quiet", description: "hide activity lines (skills, tools, session banner)", default: "off" },
    { flags: "--verbose", description: "list every skill that could not be loaded", default: "off" },
  ],
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
  const { values } = parseArgs({
    args,
    options: {
      prompt: { type: "string", short: "p" },
      skills: { type: "string", multiple: true },
      model: { type: "string" },
      "base-url": { type: "string" },
      system: { type: "string" },
      quiet: { type: "boolean", short: "q" },
      verbose: { type: "boolean" },
      session: { type: "string" },
      checkpoint: { type: "string" },
      ephemeral: { type: "boolean" },
      timeout: { type: "string" },
      "approve-all": { type: "boolean" },
      "deny-all": { type: "boolean" },
      "unsafe-local": { type: "boolean" },
      shell: { type: "boolean" },
      agent: { type: "string" },
      "trust-agent-endpoint": { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const agentFile: AgentFile | undefined =
    values.agent === undefined ? undefined : await loadAgentFileOrNamed(values.agent, io);
  if (values.ephemeral && (values.session !== undefined || values.checkpoint !== undefined))
    throw new UsageError("--ephemeral cannot be combined with --session or --checkpoint");
  if (values.json && values.prompt === undefined) throw new UsageError("--json needs -p PROMPT (a one-shot run)");
  if (values["approve-all"] && values["deny-all"])
    throw new UsageError("--approve-all and --deny-all exclude each other");
  const timeoutSeconds = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
  const endpoint = resolveChatEndpoint(
    { baseURL: values["base-url"], model: values.model ?? agentFile?.model?.name },
    io.env,
    agentFileEndpoint(agentFile, values["trust-agent-endpoint"]),
  );
  if (!endpoint) {
    io.stderr.write(NO_ENDPOINT_MESSAGE);
    return 2;
  }
  if (endpoint.warning) io.stderr.write(endpoint.warning);
  const skills = await loadSkillsFromArgs([...(values.skills ?? []), ...(agentFile?.skills ?? [])], io, {
    verbose: values.verbose === true,
  });
  const style = createStyle(io.color);
  const oneShot = values.prompt !== undefined;
  const parsed = oneShot ? parseChatLine(values.prompt!, skills) : undefined;
  if (parsed?.kind === "unknown-skill") {
    throw new CliError(
      `no skill named '${parsed.name}'${parsed.suggestions.length > 0 ? ` (did you mean ${parsed.suggestions.join(", ")}?)` : ""}`,
    );
  }
  // Every chat is a checkpointed session (SQLite by default) unless --ephemeral: resume it with --session NAME.
  const checkpointUrl = sessionsUrl(values.checkpoint, io.env, agentFile?.checkpointer);
  const session = values.ephemeral ? undefined : await openChatSession(values.session, checkpointUrl, io.cwd);
  // The session's files live beside its checkpoints, so a resumed session finds them; an ephemeral (or in-memory)
  // session gets a temporary workspace that goes when the process ends.
  const workspaceRoot = session ? sessionWorkspaceRoot(checkpointUrl, io.cwd, session.name) : undefined;
  const executorChoice = agentFile?.shell?.executor;
  const shell = createChatShell(skills, {
    unsafeLocal: values["unsafe-local"] === true || executorChoice === "unsafe-local",
    off: executorChoice === "off" && !values["unsafe-local"],
    alwaysOn: values.shell === true || agentFile?.shell?.alwaysOn === true,
    ...(workspaceRoot ? { workspaceRoot } : {}),
  });
  let lease: SessionLease | undefined;
  const timeoutMs = Math.round(timeoutSeconds * 1000);
  const where = { baseURL: endpoint.baseURL, timeoutMs };
  try {
    // One writer per session: a second `chat --session NAME` gets SessionBusyError (exit 1), never a lost turn.
    if (session) lease = await acquireSessionLease(session.checkpointer, session.name);
    const agent = createChatAgent({
      model: createChatModel(endpoint, { timeoutMs, maxRetries: 1, ...modelParameters(agentFile) }),
      skills,
      skillsOptions: {
        ...(shell.hook ? { hooks: [shell.hook] } : {}),
        ...(agentFile?.only ? { only: agentFile.only } : {}),
        ...(agentFile?.exclude ? { exclude: agentFile.exclude } : {}),
        ...(agentFile?.loadMode ? { loadMode: agentFile.loadMode } : {}),
        ...(agentFile?.loadModes ? { loadModes: agentFile.loadModes } : {}),
      },
      ...((values.system ?? agentFile?.systemPrompt) === undefined
        ? {}
        : { systemPrompt: (values.system ?? agentFile?.systemPrompt)! }),
      ...(session && lease ? { checkpointer: lease.protect(session.checkpointer), threadId: session.name } : {}),
    });
    const renderer = createChatRenderer(io, {
      quiet: values.quiet === true,
      ...(shell.hook ? { workspaceDir: shell.hook.workspacePath(agent.threadId) } : {}),
    });
    if (!values.quiet) {
      if (session)
        io.stderr.write(
          `${style.dim(`session ${terminalSafeLine(session.name)} (${session.resumed ? "resumed" : "new"}; resume with --session ${terminalSafeLine(session.name)})`)}\n`,
        );
      if (shell.executor !== "bubblewrap") io.stderr.write(`${style.yellow(shell.notice)}\n`);
      if (skills.list().length === 0)
        io.stderr.write(
          `${style.yellow("no skills found: the agent runs without skills (looked in .agents/skills, .claude/skills, skills/ and the user folders; use --skills DIR)")}\n`,
        );
    }
    const repaired = await agent.repairCancelledToolCalls();
    if (repaired > 0 && !values.quiet)
      io.stderr.write(
        `${style.dim(`${repaired} tool call${repaired === 1 ? "" : "s"} cancelled in the last run marked as cancelled`)}\n`,
      );
    if (oneShot && parsed) {
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once("SIGINT", onSigint);
      try {
        const input = parsed.kind === "invoke" ? { text: parsed.text, invokeSkill: parsed.skill } : parsed.text;
        const fromFile = agentFile?.shell?.approval;
        const mode = values["approve-all"]
          ? "approve-all"
          : values["deny-all"]
            ? "deny-all"
            : fromFile === "approve-all" || fromFile === "deny-all"
              ? fromFile
              : "deny-default";
        // -p: only the final answer on stdout (streamed on a terminal); --json: one object with the whole run.
        const output = createOneShotRenderer(renderer, io, values.json ? "json" : io.isTTY ? "stream" : "final");
        const before = values.json ? (await threadMessages(agent)).length : 0;
        const error = await runChatExchange(agent, input, output, {
          mode,
          signal: controller.signal,
          endpoint: where,
          alwaysApproved: shell.alwaysApproved,
        });
        output.finish();
        if (error === undefined && values.json) {
          const result = output.result(usageOf(await threadMessages(agent), before));
          io.stdout.write(`${JSON.stringify(result)}\n`);
        }
        if (error === undefined) return 0;
        if (error === "interrupted") {
          await agent.repairCancelledToolCalls();
          io.stderr.write(
            `${style.yellow("cancelled")}${session ? `; resume with --session ${terminalSafeLine(session.name)}` : ""}\n`,
          );
          return 130;
        }
        io.stderr.write(`${style.red(`error: ${terminalSafeLine(error)}`)}\n`);
        return 1;
      } finally {
        process.removeListener("SIGINT", onSigint);
      }
    }
    if (!values.quiet) {
      const names = skills.list().map((skill) => terminalSafeLine(skill.name));
      io.stderr.write(
        `${style.dim(`skillgraph chat: ${endpoint.model} at ${endpoint.baseURL ?? "api.openai.com"}; ${names.length} skill${names.length === 1 ? "" : "s"}${names.length > 0 ? ` (${names.join(", ")})` : ""}. /help for commands.`)}\n`,
      );
    }
    return await runChatRepl(agent, skills, renderer, io, { alwaysApproved: shell.alwaysApproved, endpoint: where });
  } finally {
    await lease?.release();
    if (session) await closeCheckpointer(session.checkpointer);
    await shell.hook?.dispose?.();
  }
}
