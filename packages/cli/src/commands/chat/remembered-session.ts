// What a chat session was started with (its skill folders, its agent), kept beside the session's workspace, so that
// `chat --session NAME` resumes with the same skills without repeating `--skills` or `--agent`.
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import type { CliIO } from "../../io/cli-io.js";
import { sessionWorkspaceRoot } from "../../stores/session-workspaces.js";
import { sessionsUrl } from "../../stores/sessions-url.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";

/** A session's setup: absolute skill folders and the agent (an absolute agent-file path or a saved agent's name). */
export interface ChatSetup {
  skills: string[];
  agent?: string;
}

const setupSchema = z.object({ skills: z.array(z.string()), agent: z.string().optional() });

const FILE = "session-setup.json";

/** The flags a chat run gives for its setup. */
export interface SetupFlags {
  session?: string;
  checkpoint?: string;
  ephemeral?: boolean;
  skills?: string[];
  agent?: string;
}

/**
 * The setup a named session was started with, when this run names the session and gives neither `--skills` nor
 * `--agent`; undefined otherwise (or when none was kept: an in-memory store, a session started without either).
 */
export async function rememberedSetup(flags: SetupFlags, io: CliIO): Promise<ChatSetup | undefined> {
  if (flags.session === undefined || flags.ephemeral || flags.agent !== undefined || (flags.skills ?? []).length > 0)
    return undefined;
  const root = sessionWorkspaceRoot(sessionsUrl(flags.checkpoint, io.env), io.cwd, flags.session);
  if (root === undefined) return undefined;
  const text = await readFile(join(root, FILE), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = setupSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The run's flags with the session's remembered setup filled in (when {@link rememberedSetup} finds one). */
export async function withRememberedSetup<Flags extends SetupFlags>(
  given: Flags,
  io: CliIO,
): Promise<{ flags: Flags; remembered: ChatSetup | undefined }> {
  const remembered = await rememberedSetup(given, io);
  if (!remembered) return { flags: given, remembered };
  const agent = remembered.agent === undefined ? {} : { agent: remembered.agent };
  return { flags: { ...given, skills: remembered.skills, ...agent }, remembered };
}

/** The setup this run's flags give: skill folders made absolute, an agent-file path made absolute (a name kept). */
export function setupOfFlags(flags: SetupFlags, io: CliIO): ChatSetup | undefined {
  const skills = (flags.skills ?? []).map((dir) => resolve(io.cwd, dir));
  if (skills.length === 0 && flags.agent === undefined) return undefined;
  const agentPath = flags.agent === undefined ? undefined : resolve(io.cwd, flags.agent);
  const agent =
    flags.agent === undefined || agentPath === undefined
      ? undefined
      : existsSync(agentPath) && statSync(agentPath).isFile()
        ? agentPath
        : flags.agent;
  return { skills, ...(agent === undefined ? {} : { agent }) };
}

/** Keeps the setup in the session's workspace root (replacing the last one); nothing for an in-memory store. */
export async function rememberSetup(workspaceRoot: string | undefined, setup: ChatSetup | undefined): Promise<void> {
  if (workspaceRoot === undefined || setup === undefined) return;
  await mkdir(workspaceRoot, { recursive: true });
  const temporary = join(workspaceRoot, `${FILE}.${process.pid}.tmp`);
  await writeFile(temporary, `${JSON.stringify(setup)}\n`, { mode: 0o600 });
  await rename(temporary, join(workspaceRoot, FILE));
}

/** The line saying a resumed session took its setup from where it was started. */
export function rememberedNotice(setup: ChatSetup): string {
  const parts = [
    ...(setup.skills.length > 0 ? [`--skills ${setup.skills.join(" ")}`] : []),
    ...(setup.agent === undefined ? [] : [`--agent ${setup.agent}`]),
  ];
  return `the session's setup: ${terminalSafeLine(parts.join(" "))}\n`;
}
