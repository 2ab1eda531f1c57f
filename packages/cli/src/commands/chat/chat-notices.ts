// The activity lines chat writes to stderr around the conversation (all hidden by --quiet): which session, how scripts
// run, missing skills, repaired tool calls, and the REPL's greeting.
import type { SkillCatalog } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatEndpoint } from "./chat-endpoint.js";
import type { ChatShell } from "./chat-shell.js";
import type { ChatSession } from "./open-chat-session.js";

const NO_SKILLS =
  "no skills found: the agent runs without skills (looked in .agents/skills, .claude/skills, skills/ and the user folders; use --skills DIR)";

/** "s" unless there is exactly one. */
const plural = (count: number) => (count === 1 ? "" : "s");

/** Before the first turn: the session (and how to resume it), how scripts run unless sandboxed, no skills found. */
export function writeStartNotices(
  io: CliIO,
  setup: { session: ChatSession | undefined; shell: ChatShell; skills: SkillCatalog },
): void {
  const style = createStyle(io.color);
  const { session, shell, skills } = setup;
  if (session) {
    const name = terminalSafeLine(session.name);
    io.stderr.write(
      `${style.dim(`session ${name} (${session.resumed ? "resumed" : "new"}; resume with --session ${name})`)}\n`,
    );
  }
  if (shell.executor !== "bubblewrap") io.stderr.write(`${style.yellow(shell.notice)}\n`);
  if (skills.list().length === 0) io.stderr.write(`${style.yellow(NO_SKILLS)}\n`);
}

/** How many tool calls a cancelled earlier run left open and were marked as cancelled (nothing when none). */
export function writeRepairedNotice(io: CliIO, repaired: number): void {
  if (repaired === 0) return;
  const style = createStyle(io.color);
  io.stderr.write(
    `${style.dim(`${repaired} tool call${plural(repaired)} cancelled in the last run marked as cancelled`)}\n`,
  );
}

/** The interactive session's greeting: model, endpoint, skills, and where help is. */
export function writeReplGreeting(io: CliIO, endpoint: ChatEndpoint, skills: SkillCatalog): void {
  const style = createStyle(io.color);
  const names = skills.list().map((skill) => terminalSafeLine(skill.name));
  const listed = names.length > 0 ? ` (${names.join(", ")})` : "";
  io.stderr.write(
    `${style.dim(`skillgraph chat: ${endpoint.model} at ${endpoint.baseURL ?? "api.openai.com"}; ${names.length} skill${plural(names.length)}${listed}. /help for commands.`)}\n`,
  );
}

/**
 * A one-shot run's skills line (the REPL's greeting says the same): how many, and their names; for the person at the
 * terminal (a captured stderr keeps only activity and errors) or asked for by --verbose, never with --quiet.
 */
export function writeSkillsNotice(
  io: CliIO,
  skills: SkillCatalog,
  options: { quiet: boolean; verbose: boolean },
): void {
  if (options.quiet || !(options.verbose || io.stderr.isTTY)) return;
  const names = skills.list().map((skill) => terminalSafeLine(skill.name));
  if (names.length === 0) return;
  io.stderr.write(`${createStyle(io.color).dim(`skills: ${names.length} (${names.join(", ")})`)}\n`);
}

/** After an interrupted one-shot run: cancelled, and how to resume the session. */
export function writeCancelledNotice(io: CliIO, session: ChatSession | undefined): void {
  const style = createStyle(io.color);
  io.stderr.write(
    `${style.yellow("cancelled")}${session ? `; resume with --session ${terminalSafeLine(session.name)}` : ""}\n`,
  );
}
