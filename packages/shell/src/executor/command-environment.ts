import { DEFAULT_FIXED_PATH } from "../policy/program-resolution.js";
import type { CommandView, ExecutionRequest } from "./executor-types.js";
import { RUN_MARKER_ENV } from "./process-tree.js";
import { workspaceVariables } from "../workspace/workspace-variables.js";

/**
 * Settings that keep programs from running code the command line does not name, set last so nothing overrides them:
 * git reads no user or system config and ignores a repository's fsmonitor, hooks, pager and `ext::` transport;
 * Python adds neither the working directory nor a user site folder to its path.
 */
const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ["GIT_CONFIG_NOSYSTEM", "1"],
  ["GIT_CONFIG_GLOBAL", "/dev/null"],
  ["GIT_CONFIG_SYSTEM", "/dev/null"],
  ["GIT_TERMINAL_PROMPT", "0"],
  ["GIT_CONFIG_COUNT", "6"],
  ["GIT_CONFIG_KEY_0", "core.fsmonitor"],
  ["GIT_CONFIG_VALUE_0", "false"],
  ["GIT_CONFIG_KEY_1", "core.hooksPath"],
  ["GIT_CONFIG_VALUE_1", "/dev/null"],
  ["GIT_CONFIG_KEY_2", "core.pager"],
  ["GIT_CONFIG_VALUE_2", "cat"],
  ["GIT_CONFIG_KEY_3", "protocol.ext.allow"],
  ["GIT_CONFIG_VALUE_3", "never"],
  ["GIT_CONFIG_KEY_4", "core.sshCommand"],
  ["GIT_CONFIG_VALUE_4", "false"],
  ["GIT_CONFIG_KEY_5", "credential.helper"],
  ["GIT_CONFIG_VALUE_5", ""],
  ["PYTHONNOUSERSITE", "1"],
  ["PYTHONSAFEPATH", "1"],
  ["PYTHONDONTWRITEBYTECODE", "1"],
];

/** Where the command's private folders are, as it sees them. */
export interface CommandFolders {
  /** TMPDIR. */
  tmpDir: string;
  /** HOME: a fresh, empty folder outside the workspace (so no staged dot-file configures a program). */
  homeDir: string;
  /** The skill environment as the command sees it (its bin/ goes first on PATH). */
  environmentDir?: string;
}

/**
 * The whole environment a command gets (an allow-list: nothing is inherited from the host): a fixed PATH, a fresh
 * HOME, TMPDIR, `SHELL=/bin/sh`, the WORKSPACE / OUT_DIR (and their aliases WORKSPACE_DIR, WORK_DIR, OUTPUT_DIR) / SKILL_DIR / SKILL_NAME locations as the command sees them,
 * the request's extras (names already checked against the allow-list), the run marker, then the hardening settings.
 */
export function commandEnvironment(
  request: ExecutionRequest,
  view: CommandView,
  folders: CommandFolders,
  mapPath: (value: string) => string,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: request.searchPath ?? DEFAULT_FIXED_PATH,
    HOME: folders.homeDir,
    TMPDIR: folders.tmpDir,
    SHELL: "/bin/sh",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    ...workspaceVariables(view.workspaceDir),
  };
  if (view.skillDir) env.SKILL_DIR = view.skillDir;
  if (folders.environmentDir) {
    env.PATH = `${folders.environmentDir}/bin:${request.searchPath ?? DEFAULT_FIXED_PATH}`;
    env.VIRTUAL_ENV = folders.environmentDir;
  }
  if (request.skillName) env.SKILL_NAME = request.skillName;
  for (const [name, value] of Object.entries(request.env)) if (!(name in env)) env[name] = mapPath(value);
  env[RUN_MARKER_ENV] = request.runId;
  for (const [name, value] of HARDENING) env[name] = value;
  return env;
}

/** Replaces a host folder prefix in `value` by the path the command sees it at. */
export function mapHostPrefix(value: string, mappings: ReadonlyArray<readonly [string, string]>): string {
  for (const [host, inside] of mappings) {
    if (value === host) return inside;
    if (value.startsWith(`${host}/`)) return inside + value.slice(host.length);
  }
  return value;
}
