import { createInterface } from "node:readline";
import type { SkillCatalog } from "@skillgraph/core";
import type { ShellApprovalRequest } from "@skillgraph/shell";
import type { CliIO } from "../../io/cli-io.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatAgent } from "./create-chat-agent.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { completeChatLine, parseChatLine, REPL_COMMANDS } from "./explicit-invocation.js";
import { approvalQuestion, runChatExchange, type ApprovalAnswer } from "./run-chat-exchange.js";
import { threadMessages } from "./one-shot-output.js";
import { turnOutcome } from "./turn-outcome.js";

const HELP =
  "Commands: /skills lists the skills, $name or /name at the start of a message loads that skill first, /help shows this, " +
  "/exit (or Ctrl-D) quits. Ctrl-C cancels the current answer (the session stays resumable). Tab completes skill names.";

/** Options of the REPL. */
export interface ChatReplOptions {
  alwaysApproved?: Set<string>;
  endpoint?: { baseURL: string | undefined; timeoutMs?: number };
}

/**
 * The interactive loop: reads a line, streams the answer, repeats until /exit or end of input.
 * Works on a TTY (prompt, Ctrl-C cancels a turn, Tab completes) and on piped stdin (each line is one turn).
 * Commands needing approval are asked here: y / n / a (always, this exact command, for this session).
 * @returns the exit code: 0, or 1 when the last turn failed
 */
export async function runChatRepl(
  { agent, skills, renderer }: { agent: ChatAgent; skills: SkillCatalog; renderer: ChatRenderer },
  io: CliIO,
  options: ChatReplOptions = {},
): Promise<number> {
  const style = createStyle(io.color);
  const rl = createInterface({
    input: io.stdin,
    output: io.isTTY ? io.stdout : undefined,
    terminal: io.isTTY,
    prompt: io.isTTY ? style.bold("> ") : "",
    completer: (line: string) => completeChatLine(line, skills),
  });
  let current: AbortController | undefined;
  let lastFailed = false;
  // One queue of input lines for messages and approval answers alike (piped input arrives all at once).
  const lines: string[] = [];
  const waiters: Array<(line: string | undefined) => void> = [];
  let closed = false;
  rl.on("line", (line) => (waiters.length > 0 ? waiters.shift()!(line) : lines.push(line)));
  rl.on("close", () => {
    closed = true;
    for (const waiter of waiters.splice(0)) waiter(undefined);
  });
  rl.on("SIGINT", () => {
    if (!current) return rl.close();
    current.abort();
    // A pending approval question is answered "no" by Ctrl-C.
    for (const waiter of waiters.splice(0)) waiter("");
  });
  const nextLine = () =>
    new Promise<string | undefined>((resolve) =>
      lines.length > 0 ? resolve(lines.shift()) : closed ? resolve(undefined) : waiters.push(resolve),
    );
  const ask = async (request: ShellApprovalRequest): Promise<ApprovalAnswer> => {
    io.stderr.write(`${style.yellow(approvalQuestion(request))} [y]es / [n]o / [a]lways this session: `);
    const word = ((await nextLine()) ?? "").trim().toLowerCase();
    if (!io.isTTY) io.stderr.write(`${word}\n`);
    return word === "y" || word === "yes" ? "yes" : word === "a" || word === "always" ? "always" : "no";
  };
  rl.prompt();
  for (let raw = await nextLine(); raw !== undefined; raw = await nextLine()) {
    const line = raw.trim();
    if (line === "/exit" || line === "/quit") break;
    if (line === "/help") io.stderr.write(`${HELP}\n`);
    else if (line === "/skills") {
      const list = skills
        .list()
        .map(
          (skill) => `${style.bold(terminalSafeLine(skill.name))}  ${style.dim(terminalSafeLine(skill.description))}`,
        );
      io.stderr.write(`${list.join("\n") || "no skills"}\n`);
    } else if (line !== "") {
      const parsed = parseChatLine(line, skills);
      if (parsed.kind === "unknown-skill") {
        const hint =
          parsed.suggestions.length > 0
            ? ` Did you mean ${parsed.suggestions.map((name) => `$${name}`).join(", ")}?`
            : "";
        io.stderr.write(
          `error: no skill or command named '${terminalSafeLine(parsed.name)}' (${REPL_COMMANDS.join(", ")}; /skills lists skills).${terminalSafeLine(hint)}\n`,
        );
      } else {
        current = new AbortController();
        await agent.repairCancelledToolCalls();
        const input = parsed.kind === "invoke" ? { text: parsed.text, invokeSkill: parsed.skill } : parsed.text;
        const before = (await threadMessages(agent)).length;
        const error = await runChatExchange(agent, input, renderer, {
          mode: "ask",
          ask,
          signal: current.signal,
          ...(options.alwaysApproved ? { alwaysApproved: options.alwaysApproved } : {}),
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        });
        const cancelled = current.signal.aborted;
        current = undefined;
        lastFailed = error !== undefined && error !== "interrupted";
        if (cancelled || error === "interrupted") {
          const repaired = await agent.repairCancelledToolCalls();
          renderer.notice(
            style.yellow(
              `cancelled${repaired > 0 ? ` (${repaired} unfinished tool call${repaired === 1 ? "" : "s"} marked cancelled)` : ""}; the session keeps everything before it.`,
            ),
          );
        } else if (error !== undefined) io.stderr.write(`${style.red(`error: ${terminalSafeLine(error)}`)}\n`);
        else {
          const outcome = turnOutcome(await threadMessages(agent), before);
          if (!outcome.answered) {
            lastFailed = true;
            io.stderr.write(`${style.red(`no answer: ${outcome.why}`)}\n`);
          } else if (outcome.cutOff)
            renderer.notice(
              style.yellow("the answer was cut off by the endpoint's output token limit; it may be incomplete"),
            );
        }
      }
    }
    rl.prompt();
  }
  rl.close();
  return lastFailed ? 1 : 0;
}
