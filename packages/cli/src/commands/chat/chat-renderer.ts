import type { CliIO } from "../../io/cli-io.js";
import { createSpinner } from "../../output/spinner.js";
import { createStyle } from "../../output/style.js";
import { terminalSafe, terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatEvent } from "./chat-event.js";
import { parseShellResult, shellResultLines, writtenFiles } from "./shell-result-lines.js";

/** Writes chat events: answer tokens to stdout as they arrive, activity lines (skills, tools) to stderr. */
export interface ChatRenderer {
  render(event: ChatEvent): void;
  /** Ends the answer with a newline if it is mid-line. */
  endTurn(): void;
  /** Shows the "waiting for the model" spinner (stderr, TTY only) until the next output. */
  waiting(): void;
  /** Writes a notice line on stderr (ending a half-written answer line first). */
  notice(line: string): void;
}

const MAX_ARGS_CHARS = 160;

/**
 * A renderer over the CLI's streams. Activity goes to stderr so `skillgraph chat -p ... > answer.md` keeps only the answer;
 * before an activity line a half-written answer line is ended, so the two never share a terminal line.
 * Everything written is passed through `terminalSafe` (answers and tool output are untrusted).
 * @param options.quiet hide activity lines @default false
 * @param options.spinner show a spinner while waiting @default stderr is a TTY
 * @param options.workspaceDir the session's workspace: after a turn that wrote files to `out/`, where they are is said
 */
export function createChatRenderer(
  io: Pick<CliIO, "stdout" | "stderr" | "color">,
  options: { quiet?: boolean; spinner?: boolean; workspaceDir?: string } = {},
): ChatRenderer {
  const written = new Set<string>();
  const style = createStyle(io.color);
  const spinner = createSpinner(io.stderr, options.spinner === undefined ? {} : { enabled: options.spinner });
  let midLine = false;
  const write = (line: string) => {
    spinner.stop();
    if (midLine) {
      io.stdout.write("\n");
      midLine = false;
    }
    io.stderr.write(`${line}\n`);
  };
  const activity = (line: string) => {
    spinner.stop();
    if (!options.quiet) write(line);
  };
  return {
    render(event) {
      spinner.stop();
      if (event.type === "token") {
        io.stdout.write(terminalSafe(event.text));
        midLine = !event.text.endsWith("\n");
        return;
      }
      const shell = event.type === "tool-result" ? shellResultLines(event.name, event.content) : undefined;
      if (event.type === "tool-result") for (const file of writtenFiles(event.name, event.content)) written.add(file);
      const raw = shell ?? [activityLine(event)].filter((line): line is string => line !== undefined);
      const status = event.type === "tool-result" ? parseShellResult(event.name, event.content)?.status : undefined;
      const failed =
        event.type === "tool-result" &&
        (event.isError || (status !== undefined && !["ok", "running"].includes(status)));
      for (const line of raw.map((text) => terminalSafeLine(text)))
        activity(event.type === "skill" ? style.cyan(line) : failed ? style.red(line) : style.dim(line));
      // After a tool result the model is called again.
      if (event.type === "tool-result") spinner.start("waiting for the model");
    },
    waiting() {
      spinner.start("waiting for the model");
    },
    notice(line) {
      write(line);
    },
    endTurn() {
      spinner.stop();
      if (midLine) io.stdout.write("\n");
      midLine = false;
      if (written.size > 0 && options.workspaceDir !== undefined)
        activity(style.dim(terminalSafeLine(`[files] in ${options.workspaceDir}: ${[...written].join(", ")}`)));
      written.clear();
    },
  };
}

/** The plain text of an activity line, or undefined for events not shown. */
export function activityLine(event: Exclude<ChatEvent, { type: "token" }>): string | undefined {
  switch (event.type) {
    case "tool-call":
      return `[tool] ${event.name} ${clip(JSON.stringify(event.args), MAX_ARGS_CHARS)}`;
    case "tool-result": {
      if (event.isError)
        return `[tool] ${event.name} failed: ${clip(event.content.split("\n")[0] ?? "", MAX_ARGS_CHARS)}`;
      const lines = event.content === "" ? 0 : event.content.split("\n").length;
      return `[tool] ${event.name} -> ${lines} line${lines === 1 ? "" : "s"}, ${event.content.length} chars`;
    }
    case "skill":
      return skillLine(event.event);
  }
}

function skillLine(event: Extract<ChatEvent, { type: "skill" }>["event"]): string | undefined {
  switch (event.type) {
    case "skill-loaded":
      return `[skill] loaded ${event.skill}`;
    case "skill-file-read":
      return `[skill] ${event.skill}: read ${event.path}`;
    case "tools-unlocked":
      return `[skill] ${event.skill} unlocked tools: ${(event.tools ?? []).join(", ")}`;
    case "skill-unloaded":
      // Turn-scoped skills unload at every turn end: routine, not shown.
      if (event.reason === "turn-ended") return undefined;
      return `[skill] unloaded ${event.skill}${event.reason ? ` (${event.reason})` : ""}`;
    case "skill-evicted":
      return `[skill] unloaded ${event.skill}${event.reason ? ` (${event.reason})` : ""}`;
    case "skill-drift":
      return `[skill] ${event.skill} changed on disk`;
    case "skill-disabled":
      return `[skill] disabled ${event.skill}`;
    case "tool-blocked":
      return `[tool] ${event.tool} blocked: ${event.reason ?? ""}`;
    default:
      return undefined;
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
