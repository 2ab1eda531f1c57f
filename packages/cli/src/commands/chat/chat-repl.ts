import { createInterface } from "node:readline";
import type { SkillCatalog } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { createStyle } from "../../output/style.js";
import type { ChatAgent } from "./create-chat-agent.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { runChatTurn } from "./run-chat-turn.js";

const HELP = "Commands: /skills lists the skills, /help shows this, /exit (or Ctrl-D) quits. Ctrl-C stops the answer being written.";

/**
 * The interactive loop: reads a line, streams the answer, repeats until /exit or end of input.
 * Works on a TTY (prompt, Ctrl-C interrupts a turn) and on piped stdin (each line is one turn).
 * @returns the exit code: 0, or 1 when the last turn failed
 */
export async function runChatRepl(agent: ChatAgent, skills: SkillCatalog, renderer: ChatRenderer, io: CliIO): Promise<number> {
  const style = createStyle(io.color);
  const rl = createInterface({ input: io.stdin, output: io.isTTY ? io.stdout : undefined, terminal: io.isTTY, prompt: io.isTTY ? style.bold("> ") : "" });
  let current: AbortController | undefined;
  let lastFailed = false;
  rl.on("SIGINT", () => {
    if (current) current.abort();
    else rl.close();
  });
  rl.prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === "/exit" || line === "/quit") break;
    if (line === "/help") io.stderr.write(`${HELP}\n`);
    else if (line === "/skills") io.stderr.write(`${skills.list().map((skill) => `${style.bold(skill.name)}  ${style.dim(skill.description)}`).join("\n") || "no skills"}\n`);
    else if (line !== "") {
      current = new AbortController();
      const error = await runChatTurn(agent, line, renderer, current.signal);
      current = undefined;
      lastFailed = error !== undefined && error !== "interrupted";
      if (error !== undefined) io.stderr.write(`${style.red(`Error: ${error}`)}\n`);
    }
    rl.prompt();
  }
  rl.close();
  return lastFailed ? 1 : 0;
}
