// Which shell tools the model may see and call, given the loaded skills: shared by the hook (interceptor) and the
// middleware (createAgent).
import { existsSync, readdirSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import type { SkillMetadata } from "../internal/core.js";
import type { CommandSkill } from "../policy/plan-command.js";
import { preflightCommand } from "../policy/plan-command.js";
import { grantOf } from "../policy/command-rules.js";
import { NO_THREAD } from "../workspace/thread-workspaces.js";
import type { ShellToolName } from "../options/shell-hook-options.js";
import type { SkillsToolAuthorization, SkillsToolHookContext } from "../options/skills-tool-hook.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";

/** Top-level folders the spec gives to files that are read, not run. */
const READ_ONLY_FOLDERS = new Set(["references", "assets"]);

/**
 * Whether a loaded skill may hold something to run: a `scripts/` folder, any other top-level folder but `references/`
 * and `assets/` (authors of other runtimes write `custom-scripts/`, `bin/`, `tools/`), or an executable top-level file.
 * Checked on every request (one directory read per loaded skill, a few microseconds): a cache would keep
 * `run_skill_script` hidden after a reload adds the folder.
 */
function hasRunnableFiles(dir: string): boolean {
  if (dir === "") return false;
  if (existsSync(path.join(dir, "scripts"))) return true;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((entry) =>
    entry.isDirectory()
      ? !READ_ONLY_FOLDERS.has(entry.name) && !entry.name.startsWith(".")
      : entry.isFile() && isExecutable(path.join(dir, entry.name)),
  );
}

function isExecutable(file: string): boolean {
  try {
    return (statSync(file).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function asCommandSkill(skill: SkillMetadata): CommandSkill {
  return { name: skill.name, dir: skill.dir, allowedTools: skill.allowedTools };
}

/** The shell tools the loaded skills ask for (plus those always visible). */
export function visibleTools(
  runtime: RuntimeView<"alwaysVisible" | "sessionsEnabled">,
  context: SkillsToolHookContext,
): string[] {
  const visible = new Set<ShellToolName>(runtime.config.alwaysVisible);
  for (const skill of context.loadedSkills) {
    const grant = grantOf(asCommandSkill(skill));
    if (skill.dir !== "" && (grant.mentionsShell || hasRunnableFiles(skill.dir))) visible.add("run_skill_script");
    if (grant.anyCommand || grant.rules.length > 0 || skill.allowedTools.includes("shell")) visible.add("shell");
  }
  // a result's refs are read back with read_output wherever a command can run
  if (visible.has("run_skill_script") || visible.has("shell")) visible.add("read_output");
  if (runtime.config.sessionsEnabled && (visible.has("run_skill_script") || visible.has("shell"))) {
    visible.add("shell_session_write");
    visible.add("shell_session_poll");
    visible.add("shell_session_kill");
  }
  return [...visible];
}

/** Checks a shell tool call before it runs (skill read, every command of the line allowed); records the loaded skills. */
export function authorize(
  runtime: RuntimeView<"requireSkillRead", "catalog" | "policy" | "workspaces", "seenLoaded">,
  call: { toolName: string; args: unknown },
  context: SkillsToolHookContext,
): SkillsToolAuthorization {
  const names = context.loadedSkills.map((skill) => skill.name);
  runtime.threads.seenLoaded.set(context.threadId ?? NO_THREAD, names);
  if (call.toolName !== "run_skill_script" && call.toolName !== "shell") return { allowed: true };
  const args = (call.args ?? {}) as { skill?: unknown; command?: unknown; cwd?: unknown; env?: unknown };
  if (typeof args.command !== "string") return { allowed: false, reason: "invalid-input: 'command' must be a string" };
  let skill: CommandSkill | undefined;
  if (call.toolName === "run_skill_script") {
    const metadata = typeof args.skill === "string" ? runtime.services.catalog.get(args.skill) : undefined;
    if (!metadata)
      return { allowed: false, reason: `skill-not-found: skill '${String(args.skill)}' not found in the catalog` };
    if (runtime.config.requireSkillRead && !names.includes(metadata.name)) {
      return {
        allowed: false,
        reason: `skill-not-read: read skill '${metadata.name}' (read_skill) before running its scripts`,
      };
    }
    skill = asCommandSkill(metadata);
  }
  const checked = preflightCommand(
    {
      command: args.command,
      mode: call.toolName === "run_skill_script" ? "skill" : "shell",
      skill,
      loadedSkills: context.loadedSkills.map(asCommandSkill),
      workspaceDir: runtime.services.workspaces.pathFor(context.threadId),
      cwd: typeof args.cwd === "string" ? args.cwd : undefined,
      env: args.env && typeof args.env === "object" ? (args.env as Record<string, string>) : undefined,
    },
    runtime.services.policy,
  );
  return checked.ok ? { allowed: true } : { allowed: false, reason: `${checked.reason}: ${checked.message}` };
}
