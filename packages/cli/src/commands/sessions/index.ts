import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  checkpointStats,
  closeCheckpointer,
  createCheckpointer,
  inspectSession,
  listSessions,
  pruneCheckpoints,
  redactUrl,
} from "@skillgraph/checkpoint";
import type { CliIO } from "../../cli-io.js";
import { formatTable, truncate } from "../../output/format-table.js";
import { createStyle } from "../../output/style.js";
import { SESSIONS_URL_HELP, sessionsUrl } from "../../sessions-url.js";
import { loadSkillsFromArgs } from "../../skill-sources-from-args.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { CommandHelp } from "../../output/command-help.js";
import { UsageError } from "../../usage-error.js";
import { formatBytes, parseDuration } from "./parse-duration.js";
import {
  pruneSessionWorkspaces,
  removeSessionWorkspace,
  sessionWorkspaceRoot,
  workspacesFolder,
} from "../../session-workspaces.js";

/** One-line usage shown by `skillgraph sessions --help` and on usage errors. */
export const usage =
  "skillgraph sessions list | show NAME [--skills DIR]... | prune [NAME] [--keep-last N] [--max-age D] | delete NAME   [--checkpoint URL] [--json]";

export const help: CommandHelp = {
  summary: "List, inspect, prune and delete the checkpointed sessions `skillgraph chat` writes.",
  options: [
    SESSIONS_URL_HELP,
    { flags: "--json", description: "print JSON instead of text", default: "off" },
    {
      flags: "--keep-last N",
      description: "prune: keep the last N checkpoints of each session (and what a resume needs)",
      default: "none",
    },
    { flags: "--max-age D", description: "prune: drop checkpoints older than D (e.g. 30m, 12h, 7d)", default: "none" },
    {
      flags: "--skills DIR",
      description: "show: skill folders to check loaded skills against for drift (repeatable)",
      default: "the conventional skill folders",
    },
  ],
  notes: [
    "A session's workspace (the files its commands wrote) lives beside the sessions database, in workspaces/<session>; delete removes it, prune removes those of sessions no longer stored and, with --max-age, those unused that long.",
    "Exit codes: 0 ok, 1 session not found (show, prune NAME, delete), 2 usage error.",
  ],
  examples: ["skillgraph sessions list", "skillgraph sessions prune --keep-last 5 --max-age 7d"],
};

const options = {
  checkpoint: { type: "string" },
  json: { type: "boolean" },
  "keep-last": { type: "string" },
  "max-age": { type: "string" },
  skills: { type: "string", multiple: true },
} as const;

/** A sqlite: URL's file that does not exist yet (nothing to show, and no reason to create it). */
function missingSqliteFile(url: string, cwd: string): string | undefined {
  if (!url.startsWith("sqlite:") || url === "sqlite::memory:") return undefined;
  const path = url.slice("sqlite:".length);
  const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
  return existsSync(absolute) ? undefined : absolute;
}

/** `skillgraph sessions`: list, inspect, prune and delete checkpointed sessions. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true });
  const [action, name, ...extra] = positionals;
  if (!action) throw new UsageError("missing action: list, show, prune or delete");
  if (!["list", "show", "prune", "delete"].includes(action)) throw new UsageError(`unknown action '${action}'`);
  if ((action === "show" || action === "delete") && !name) throw new UsageError(`${action} needs a session NAME`);
  if (extra.length > 0 || (action === "list" && name))
    throw new UsageError(`unexpected argument '${extra[0] ?? name}'`);
  const keepLast = values["keep-last"] === undefined ? undefined : Number(values["keep-last"]);
  if (keepLast !== undefined && !(Number.isInteger(keepLast) && keepLast > 0))
    throw new UsageError(`--keep-last '${values["keep-last"]}' must be a positive integer`);
  const maxAgeMs = values["max-age"] === undefined ? undefined : parseDuration(values["max-age"], "--max-age");
  if (action === "prune" && keepLast === undefined && maxAgeMs === undefined)
    throw new UsageError("prune needs --keep-last N and/or --max-age D");

  const url = sessionsUrl(values.checkpoint, io.env);
  const style = createStyle(io.color);
  const out = (text: string) => io.stdout.write(`${text}\n`);
  const missing = missingSqliteFile(url, io.cwd);
  if (missing) {
    if (action === "list" || (action === "prune" && !name)) {
      if (values.json) out(JSON.stringify(action === "list" ? { sessions: [] } : { threads: 0, removed: 0 }));
      else out(`No sessions: ${missing} does not exist.`);
      return 0;
    }
    io.stderr.write(`error: session '${terminalSafeLine(name!)}' not found: ${missing} does not exist.\n`);
    return 1;
  }

  // A one-shot command reports an unreachable database at once rather than waiting for a restart to end.
  const saver = await createCheckpointer(url, { cwd: io.cwd, startupRetryMs: 0 });
  try {
    if (action === "list") return await list(saver, values.json === true, out, style);
    if (action === "show")
      return await show(saver, name!, { json: values.json, skills: values.skills }, io, out, style);
    if (action === "prune") {
      if (name !== undefined && !(await listSessions(saver)).some((session) => session.threadId === name)) {
        io.stderr.write(`error: session '${terminalSafeLine(name)}' not found in ${redactUrl(url)}\n`);
        return 1;
      }
      const before = await checkpointStats(saver, name);
      const report = await pruneCheckpoints(saver, { keepLast, maxAgeMs }, name);
      const after = await checkpointStats(saver, name);
      // workspaces of sessions gone from the store, and (with --max-age) those unused that long
      const live = (await listSessions(saver)).map((session) => session.threadId);
      const workspacesRemoved = await pruneSessionWorkspaces(url, io.cwd, live, {
        ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
        ...(name === undefined ? {} : { only: name }),
      });
      if (values.json) out(JSON.stringify({ ...report, before, after, workspacesRemoved }));
      else {
        if (workspacesRemoved.length > 0)
          out(
            `Removed ${workspacesRemoved.length} session workspace${workspacesRemoved.length === 1 ? "" : "s"} from ${workspacesFolder(url, io.cwd)}.`,
          );
        out(
          `Pruned ${report.removed} checkpoint${report.removed === 1 ? "" : "s"} from ${report.threads} session${report.threads === 1 ? "" : "s"}: ${formatBytes(before.bytes)} -> ${formatBytes(after.bytes)}.`,
        );
        const kept = Object.entries(report.kept).filter(([reason, count]) => reason !== "policy" && count > 0);
        if (kept.length > 0)
          out(
            style.dim(
              `kept beyond the policy because a resume needs them: ${kept.map(([reason, count]) => `${count} ${reason}`).join(", ")}`,
            ),
          );
      }
      return 0;
    }
    const exists = (await listSessions(saver)).some((session) => session.threadId === name);
    if (!exists) {
      io.stderr.write(`error: session '${terminalSafeLine(name!)}' not found in ${redactUrl(url)}\n`);
      return 1;
    }
    await saver.deleteThread(name!);
    const workspace = sessionWorkspaceRoot(url, io.cwd, name!);
    const hadWorkspace = await removeSessionWorkspace(url, io.cwd, name!);
    if (values.json) out(JSON.stringify({ deleted: name, workspaceRemoved: hadWorkspace ? workspace : null }));
    else out(`Deleted session '${name}'${hadWorkspace ? ` and its workspace ${workspace}` : ""}.`);
    return 0;
  } finally {
    await closeCheckpointer(saver);
  }
}

/** The session's first user message (what it was started with), or undefined when it has none. */
async function firstPrompt(saver: BaseCheckpointSaver, threadId: string): Promise<string | undefined> {
  const session = await inspectSession(saver, threadId);
  return session.messages.find((message) => message.type === "human")?.content;
}

async function list(
  saver: BaseCheckpointSaver,
  json: boolean,
  out: (text: string) => void,
  style: ReturnType<typeof createStyle>,
): Promise<number> {
  const sessions = await listSessions(saver);
  const firstPrompts = await Promise.all(sessions.map((s) => firstPrompt(saver, s.threadId)));
  if (json) {
    out(
      JSON.stringify({
        sessions: sessions.map((s, index) => ({
          ...s,
          updatedAt: s.updatedAt === undefined ? null : new Date(s.updatedAt).toISOString(),
          firstPrompt: firstPrompts[index] ?? null,
        })),
      }),
    );
    return 0;
  }
  if (sessions.length === 0) {
    out("No sessions.");
    return 0;
  }
  const rows = [["NAME", "UPDATED", "CHECKPOINTS", "WRITES", "SIZE", "FIRST PROMPT"].map((h) => style.dim(h))];
  sessions.forEach((s, index) =>
    rows.push([
      style.bold(terminalSafeLine(s.threadId)),
      s.updatedAt ? new Date(s.updatedAt).toISOString().replace("T", " ").slice(0, 19) : "-",
      String(s.checkpoints),
      String(s.writes),
      formatBytes(s.bytes),
      truncate(terminalSafeLine(firstPrompts[index] ?? "-"), 50),
    ]),
  );
  out(formatTable(rows));
  return 0;
}

async function show(
  saver: BaseCheckpointSaver,
  name: string,
  values: { json?: boolean; skills?: string[] },
  io: CliIO,
  out: (text: string) => void,
  style: ReturnType<typeof createStyle>,
): Promise<number> {
  const registry = await loadSkillsFromArgs(values.skills && values.skills.length > 0 ? values.skills : undefined, io, {
    report: !values.json,
  });
  const session = await inspectSession(saver, name, registry);
  if (!session.exists) {
    io.stderr.write(`error: session '${terminalSafeLine(name)}' not found\n`);
    return 1;
  }
  const stats = await checkpointStats(saver, name);
  if (values.json) {
    out(
      JSON.stringify({
        ...session,
        updatedAt: session.updatedAt === undefined ? null : new Date(session.updatedAt).toISOString(),
        storage: stats,
      }),
    );
    return 0;
  }
  out(
    `${style.bold(terminalSafeLine(name))}  step ${session.lastStep ?? "-"}  ${session.updatedAt ? new Date(session.updatedAt).toISOString() : ""}`,
  );
  out(style.dim(`${stats.checkpoints} checkpoints, ${stats.writes} writes, ${formatBytes(stats.bytes)}`));
  out(`\nLoaded skills (${session.loadedSkills.length}):`);
  for (const skill of session.loadedSkills) {
    const drift = session.drift.find((d) => d.name === skill.name && d.agentId === skill.agentId);
    const mark = drift ? style.yellow(` [${drift.kind} on disk]`) : "";
    out(`  ${terminalSafeLine(`${skill.agentId ? `${skill.agentId}/` : ""}${skill.name} (${skill.mode})`)}${mark}`);
  }
  if (session.pendingWrites > 0)
    out(
      style.dim(
        `${session.pendingWrites} write${session.pendingWrites === 1 ? "" : "s"} of an unfinished step stored (applied when the session resumes)`,
      ),
    );
  if (session.pendingInterrupts.length > 0)
    out(
      style.yellow(
        `\nWaiting for approval: ${terminalSafeLine(session.pendingInterrupts.map((value) => JSON.stringify(value)).join(", "))}`,
      ),
    );
  out(`\nMessages (${session.messages.length}):`);
  const width = Math.max(30, ((io.stdout as { columns?: number }).columns ?? 100) - 12);
  for (const message of session.messages) {
    const body = message.toolCalls ? `calls ${message.toolCalls.join(", ")}` : message.content;
    out(`  ${style.cyan(message.type.padEnd(6))} ${truncate(terminalSafeLine(body), width)}`);
  }
  return 0;
}
