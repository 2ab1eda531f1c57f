import path from "node:path";
import { DEFAULT_FIXED_PATH } from "../policy/program-resolution.js";
import type { CommandView, ExecutionRequest } from "./executor-types.js";
import { RUN_MARKER_ENV } from "./process-tree.js";
import { workspaceVariables } from "../command/workspace-variables.js";

/**
 * Git configuration keys that name a program to run, each given a value that runs nothing (command-line scope, which
 * wins over every configuration file, the repository's included): a repository's `config` is input the model
 * controls, so none of its program-running keys may take effect. Keys whose name the repository chooses (pager.<cmd>,
 * diff.<driver>.textconv, filter.<driver>.*) cannot be listed here: the environment below disables the pagers, and
 * `safe.bareRepository=explicit` keeps git from taking a staged bare-repository-shaped folder as a repository. Under
 * bubblewrap every repository that exists when the command starts is also seen with a sanitised configuration
 * (src/repository/), whose sanitised configuration drops `diff.external`; there the override below is left out, because
 * git (2.39) runs even an empty `diff.external`, so with it `git diff` fails (the local executor keeps it: fail closed).
 */
const GIT_PROGRAM_KEYS: ReadonlyArray<readonly [string, string]> = [
  ["safe.bareRepository", "explicit"],
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", "false"],
  ["sequence.editor", "false"],
  ["core.askPass", "false"],
  ["core.sshCommand", "false"],
  ["core.gitProxy", "false"],
  ["core.alternateRefsCommand", ""],
  ["core.attributesFile", "/dev/null"],
  ["diff.external", ""],
  ["credential.helper", ""],
  ["gpg.program", "false"],
  ["gpg.openpgp.program", "false"],
  ["gpg.x509.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.ssh.defaultKeyCommand", "false"],
  ["protocol.ext.allow", "never"],
  ["man.viewer", "false"],
  ["web.browser", "false"],
];

/**
 * Settings that keep programs from running code the command line does not name, set last so nothing overrides them:
 * git reads no user or system config, overrides every fixed-name key of a repository's config that runs a program,
 * uses no pager or editor (the environment variables win over `pager.<cmd>` and `core.editor`), takes no
 * bare-repository-shaped folder as a repository unless named, and does not look above the workspace; Python adds
 * neither the working directory nor a user site folder to its path.
 */
const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ["GIT_CONFIG_NOSYSTEM", "1"],
  ["GIT_CONFIG_GLOBAL", "/dev/null"],
  ["GIT_CONFIG_SYSTEM", "/dev/null"],
  ["GIT_ATTR_NOSYSTEM", "1"],
  ["GIT_TERMINAL_PROMPT", "0"],
  ["GIT_PAGER", "cat"],
  ["GIT_EDITOR", "false"],
  ["GIT_SEQUENCE_EDITOR", "false"],
  ["GIT_ASKPASS", "false"],
  ["GIT_SSH_COMMAND", "false"],
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
  /** Every repository the command can reach is seen with a sanitised configuration (bubblewrap, unless trusted). */
  repositoriesSanitized?: boolean;
}

/** The command-line-scope overrides (GIT_CONFIG_COUNT / _KEY_n / _VALUE_n) of the program-running keys. */
function gitOverrides(repositoriesSanitized: boolean): Array<readonly [string, string]> {
  const keys = GIT_PROGRAM_KEYS.filter(([key]) => !(repositoriesSanitized && key === "diff.external"));
  return [
    ["GIT_CONFIG_COUNT", String(keys.length)],
    ...keys.flatMap(([key, value], index) => [
      [`GIT_CONFIG_KEY_${index}`, key] as const,
      [`GIT_CONFIG_VALUE_${index}`, value] as const,
    ]),
  ];
}

/**
 * The whole environment a command gets (an allow-list: nothing is inherited from the host): a fixed PATH, a fresh
 * HOME, TMPDIR, `SHELL=/bin/sh`, the WORKSPACE / OUT_DIR (and their aliases WORKSPACE_DIR, WORK_DIR, OUTPUT_DIR) / SKILL_DIR / SKILLS_DIR / SKILL_NAME locations as the command sees them,
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
  if (view.skillDir) {
    env.SKILL_DIR = view.skillDir;
    // trpc-agent-go's name: the folder the skill is in, so `$SKILLS_DIR/<skill folder>/...` is the skill
    env.SKILLS_DIR = view.skillsDir ?? path.dirname(view.skillDir);
  }
  if (folders.environmentDir) {
    env.PATH = `${folders.environmentDir}/bin:${request.searchPath ?? DEFAULT_FIXED_PATH}`;
    env.VIRTUAL_ENV = folders.environmentDir;
  }
  if (request.skillName) env.SKILL_NAME = request.skillName;
  for (const [name, value] of Object.entries(request.env)) if (!(name in env)) env[name] = mapPath(value);
  env[RUN_MARKER_ENV] = request.runId;
  for (const [name, value] of HARDENING) env[name] = value;
  for (const [name, value] of gitOverrides(folders.repositoriesSanitized ?? false)) env[name] = value;
  // git looks for a repository no higher than the workspace (a folder above it is not the model's to configure)
  env.GIT_CEILING_DIRECTORIES = path.posix.dirname(view.workspaceDir);
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
