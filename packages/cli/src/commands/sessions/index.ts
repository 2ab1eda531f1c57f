import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import { checkedOptions } from "../../io/checked-options.js";
import type { CliIO } from "../../io/cli-io.js";
import { flagsHelp, flagsUsage } from "../../io/flag-table.js";
import type { CommandHelp } from "../../output/command-help.js";
import { createStyle } from "../../output/style.js";
import { sessionsUrl } from "../../stores/sessions-url.js";
import { deleteSession } from "./delete-session.js";
import { listStoredSessions } from "./list-sessions.js";
import { pruneSessions } from "./prune-sessions.js";
import { repairSession } from "./repair-session.js";
import {
  readSessionsArgs,
  sessionsCommandSchema,
  sessionsFlags,
  type SessionsCommand,
  type SessionsContext,
} from "./sessions-command.js";
import { answerWithoutStore, missingSqliteFile } from "./sessions-without-store.js";
import { showSession } from "./show-session.js";

/** One-line usage shown by `skillgraph sessions --help` and on usage errors. */
export const usage = flagsUsage(
  "sessions",
  sessionsFlags,
  "list | show NAME | repair NAME | prune [NAME] | delete NAME",
);

export const help: CommandHelp = {
  summary: "List, inspect, repair, prune and delete the checkpointed sessions `skillgraph chat` writes.",
  options: flagsHelp(sessionsFlags),
  notes: [
    "A session's workspace (the files its commands wrote) lives beside the sessions database, in workspaces/<session>; delete removes it, prune removes those of sessions no longer stored and, with --max-age, those unused that long.",
    "show flags a damaged history (sessions saved by an older skillgraph: replaced replies, repeated tool-call ids); repair gives repeated or empty tool-call ids unique ids (call and result replaced in place) and answers tool calls left without a result with a 'cancelled' result; it never deletes a message (results that answer no call stay stored, and every request leaves them out).",
    "Exit codes: 0 ok, 1 session not found (show, repair, prune NAME, delete) or, for repair, a session that is still not sound or that it refuses to write (busy, waiting for an approval, an unfinished step, not written by chat), 2 usage error.",
  ],
  examples: [
    "skillgraph sessions list",
    "skillgraph sessions repair 2026-11-25-1012 --dry-run",
    "skillgraph sessions prune --keep-last 5 --max-age 7d",
  ],
};

/** `skillgraph sessions`: list, inspect, repair, prune and delete checkpointed sessions. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const command = checkedOptions(sessionsCommandSchema, readSessionsArgs(args));
  const url = sessionsUrl(command.checkpoint, io.env);
  const context: SessionsContext = {
    io,
    url,
    out: (text) => io.stdout.write(`${text}\n`),
    style: createStyle(io.color),
    json: command.json,
  };
  const missing = missingSqliteFile(url, io.cwd);
  if (missing) return answerWithoutStore(command, missing, context);
  // A one-shot command reports an unreachable database at once rather than waiting for a restart to end.
  const saver = await createCheckpointer(url, { cwd: io.cwd, startupRetryMs: 0 });
  try {
    return await runAction(saver, command, context);
  } finally {
    await closeCheckpointer(saver);
  }
}

/** The command's action against the open store. */
function runAction(saver: BaseCheckpointSaver, command: SessionsCommand, context: SessionsContext): Promise<number> {
  switch (command.action) {
    case "list":
      return listStoredSessions(saver, context);
    case "show":
      return showSession(saver, command.name, command.skills, context);
    case "repair":
      return repairSession(saver, command.name, command.dryRun, context);
    case "prune":
      return pruneSessions(saver, command.name, command, context);
    case "delete":
      return deleteSession(saver, command.name, context);
  }
}
