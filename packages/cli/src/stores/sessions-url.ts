// Where `skillgraph chat` writes sessions and `skillgraph sessions` reads them: one rule for both commands.
import { stringFlag } from "../io/flag-table.js";

/** Where sessions live unless `--checkpoint`, an agent file or `SKILLGRAPH_CHECKPOINT` says otherwise. */
export const DEFAULT_SESSIONS_URL = "sqlite:.skillgraph/sessions.db";

/** `--checkpoint URL`, the same flag in `chat`'s and `sessions`' tables. */
export const CHECKPOINT_FLAG = stringFlag("URL", "where sessions live: sqlite:FILE, postgres://..., memory:", {
  default: `$SKILLGRAPH_CHECKPOINT or ${DEFAULT_SESSIONS_URL}`,
});

/**
 * The checkpointer URL of a command: `--checkpoint`, else the agent file's `checkpointer`, else
 * `$SKILLGRAPH_CHECKPOINT`, else {@link DEFAULT_SESSIONS_URL}.
 */
export function sessionsUrl(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  agentFileUrl?: string,
): string {
  return flag ?? agentFileUrl ?? env.SKILLGRAPH_CHECKPOINT ?? DEFAULT_SESSIONS_URL;
}
