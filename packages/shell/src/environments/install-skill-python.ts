// The per-skill Python environment seen from outside a graph (`skillgraph deps`): what a skill needs, whether its
// environment is installed, and installing it on this machine after the user approved. The same folder the shell hook
// uses when a script runs, so an environment installed here is reused there.
import { spawn } from "node:child_process";
import {
  defaultEnvironmentRoot,
  environmentIsReady,
  installCommand,
  markEnvironmentReady,
  prepareEnvironmentFolder,
  readSkillRequirements,
  withInstallFolder,
  type SkillRequirements,
} from "./skill-environments.js";

/** Environment variables an install may see (proxies and pip's own settings); nothing else of the host's is passed. */
const INSTALL_ENV_ALLOW =
  /^(PATH|HOME|LANG|LC_ALL|TMPDIR|PIP_[A-Z_]+|UV_[A-Z_]+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSL_CERT_FILE|SSL_CERT_DIR)$/;

/** A skill's Python packages and their environment. */
export interface SkillPythonEnvironment {
  /** Where the list comes from: `requirements.txt`, `scripts/requirements.txt`, or `depends.uv` (frontmatter). */
  source: string;
  packages: string[];
  /** The environment folder (outside the skill folder). */
  environment: string;
  /** True when that environment was installed completely. */
  installed: boolean;
}

/** Options of the Python environment helpers. */
export interface SkillPythonEnvironmentOptions {
  /** Folder holding the environments. @default the shell hook's (`$XDG_CACHE_HOME/skillgraph/envs` or `~/.cache/skillgraph/envs`) */
  root?: string;
  /** Extra pip arguments, e.g. `["--no-index", "--find-links", "/srv/wheels"]`. */
  pipArgs?: readonly string[];
  /** Time limit of the install. @default 600000 */
  timeoutMs?: number;
  /** Environment the install starts from (filtered to proxies and PIP_ / UV_ settings). @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The parts of a skill the Python environment helpers read (a `SkillMetadata` fits). */
export interface SkillPythonSource {
  name: string;
  dir: string;
  /** tama's `depends`, as core reads it: `uv` lists Python packages when there is no requirements file. */
  dependencies?: { uv?: readonly string[] };
}

/**
 * The Python packages a skill needs (its requirements file, else tama's `depends.uv`) and whether their environment is
 * installed; undefined when it needs none; `{ error }` naming the line when a requirement is not a plain specifier.
 */
export async function skillPythonEnvironment(
  skill: SkillPythonSource,
  options: SkillPythonEnvironmentOptions = {},
): Promise<SkillPythonEnvironment | { error: string } | undefined> {
  const requirements = await readSkillRequirements(skill, options.root ?? defaultEnvironmentRoot());
  if (!requirements || "error" in requirements) return requirements;
  return {
    source: requirements.file === "" ? "depends.uv" : requirements.file,
    packages: requirements.packages,
    environment: requirements.hostDir,
    installed: environmentIsReady(requirements),
  };
}

/**
 * Installs a skill's Python packages into its own environment on this machine (`python3 -m venv` + pip, no root, not
 * sandboxed: call it only after the user approved). Resolves with the pip output's tail on failure.
 */
export async function installSkillPythonEnvironment(
  skill: SkillPythonSource,
  options: SkillPythonEnvironmentOptions = {},
): Promise<{ ok: true; environment: string } | { ok: false; message: string }> {
  const requirements = await readSkillRequirements(skill, options.root ?? defaultEnvironmentRoot());
  if (!requirements) return { ok: false, message: `skill '${skill.name}' declares no Python packages` };
  if ("error" in requirements) return { ok: false, message: requirements.error };
  prepareEnvironmentFolder(requirements);
  const result = await withInstallFolder(requirements, (installDir) => runPip(requirements, installDir, options));
  if (result.code !== 0) {
    const tail = result.output.trim().split("\n").slice(-6).join("\n");
    return {
      ok: false,
      message: `installing the Python packages of skill '${skill.name}' failed (${result.timedOut ? "timed out" : `exit ${result.code}`}):\n${tail}`,
    };
  }
  const marked = await markEnvironmentReady(requirements);
  if (!marked.ok) return { ok: false, message: marked.message };
  return { ok: true, environment: requirements.hostDir };
}

/** pip in a fresh venv, from the install folder (its checked `requirements.txt` only), with an allow-listed environment. */
function runPip(
  requirements: SkillRequirements,
  installDir: string,
  options: SkillPythonEnvironmentOptions,
): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  const argv = installCommand(requirements.hostDir, `${installDir}/requirements.txt`, options.pipArgs ?? []);
  const env = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(
      (entry): entry is [string, string] => INSTALL_ENV_ALLOW.test(entry[0]) && typeof entry[1] === "string",
    ),
  );
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: installDir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-16_384);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 600_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}${error.message}`, timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}
