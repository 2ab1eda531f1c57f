import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withConfinedFolder } from "../internal/core.js";

/** Where a skill declares the Python packages its scripts need (the first that exists). */
export const REQUIREMENTS_FILES = ["requirements.txt", "scripts/requirements.txt"] as const;

/** What a skill's requirements file says, and the environment it gets. */
export interface SkillRequirements {
  /** Path of the requirements file relative to the skill folder; "" for packages declared in frontmatter (`depends.uv`). */
  file: string;
  /** Its lines without comments and blanks (what the approver sees). */
  packages: string[];
  text: string;
  /** The environment folder for exactly this skill and these requirements (a changed file gets a new one). */
  hostDir: string;
}

/** Options of the per-skill environments (the shell hook's `skillEnvironments` option). */
export interface SkillEnvironmentOptions {
  /** Folder holding the environments (outside any skill folder). @default `$XDG_CACHE_HOME/skillgraph/envs` or `~/.cache/skillgraph/envs` */
  root?: string;
  /** `interrupt` asks through LangGraph `interrupt()` before installing; `always` installs without asking; `never` refuses. @default "interrupt" */
  approve?: "interrupt" | "always" | "never";
  /** Extra pip arguments, e.g. `["--no-index", "--find-links", "/srv/wheels"]` (absolute folders there are made readable in the sandbox). */
  pipArgs?: readonly string[];
  /** Time limit of one install. @default 600000 (10 minutes) */
  installTimeoutMs?: number;
}

/** Lines of a requirements file that may be passed to pip: package specifiers only, no options or URLs to run. */
const SAFE_REQUIREMENT =
  /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?\s*([<>=!~]=?\s*[A-Za-z0-9.*+!-]+\s*,?\s*)*(;.*)?$/;

/** The default root of the environments. */
export function defaultEnvironmentRoot(): string {
  const cache =
    process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
      ? process.env.XDG_CACHE_HOME
      : path.join(os.homedir(), ".cache");
  return path.join(cache, "skillgraph", "envs");
}

/**
 * Reads a skill's requirements (race-free, size-capped) and names its environment folder by skill name and content
 * hash. Only plain package specifiers are accepted: a line with a pip option (`-e`, `--index-url`, `-r`), a URL or a
 * path is refused with a message naming it, since it would let a skill fetch or run code beyond what is shown.
 * @returns undefined when the skill declares no requirements
 */
export async function readSkillRequirements(
  skill: { name: string; dir: string; dependencies?: { uv?: readonly string[] } },
  root: string,
): Promise<SkillRequirements | { error: string } | undefined> {
  if (skill.dir === "") return undefined;
  const fromFile = await withConfinedFolder(skill.dir, async (folder) => {
    for (const file of REQUIREMENTS_FILES) {
      const read = await folder.readFile(file, { maxBytes: 64 * 1024 });
      if (!read.ok) {
        if (read.reason === "not-found" || read.reason === "not-a-folder") continue;
        return { error: `skill '${skill.name}': ${read.message}` };
      }
      const text = read.bytes.toString("utf8");
      const packages = text
        .split(/\r?\n/)
        .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
        .filter((line) => line !== "");
      const unsafe = packages.find((line) => !SAFE_REQUIREMENT.test(line));
      if (unsafe !== undefined)
        return {
          error: `skill '${skill.name}': ${file} line '${unsafe}' is not a plain package specifier (options, URLs and paths are not installed)`,
        };
      const digest = createHash("sha256").update(`${process.version}\n${text}`).digest("hex").slice(0, 16);
      const safeName = skill.name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
      return { file, packages, text, hostDir: path.join(root, `${safeName}-${digest}`) };
    }
    return undefined;
  });
  if (fromFile !== undefined) return fromFile;
  return declaredRequirements(skill.name, skill.dependencies?.uv ?? [], root);
}

/**
 * The environment of Python packages a skill declares in its frontmatter (tama's `depends.uv`) when it has no
 * requirements file: `file` is "" (the installer writes the list into the environment folder). Same rules as a file.
 */
function declaredRequirements(
  name: string,
  packages: readonly string[],
  root: string,
): SkillRequirements | { error: string } | undefined {
  if (packages.length === 0) return undefined;
  const unsafe = packages.find((line) => !SAFE_REQUIREMENT.test(line));
  if (unsafe !== undefined)
    return {
      error: `skill '${name}': depends.uv entry '${unsafe}' is not a plain package specifier (URLs and paths are not installed)`,
    };
  const text = `${packages.join("\n")}\n`;
  const digest = createHash("sha256").update(`${process.version}\n${text}`).digest("hex").slice(0, 16);
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
  return { file: "", packages: [...packages], text, hostDir: path.join(root, `${safeName}-${digest}`) };
}

/** Where the installer reads the requirements from: the skill's file, or (declared in frontmatter) a copy in the environment. */
export function requirementsPathFor(
  requirements: SkillRequirements,
  skillDir: string,
  envDir = requirements.hostDir,
): string {
  return requirements.file === "" ? path.join(envDir, "requirements.txt") : path.join(skillDir, requirements.file);
}

/** Writes frontmatter-declared requirements into the (prepared) environment folder for the installer. */
export function writeDeclaredRequirements(requirements: SkillRequirements): void {
  if (requirements.file === "") writeFileSync(path.join(requirements.hostDir, "requirements.txt"), requirements.text);
}

/** True when the environment was installed completely. */
export function environmentIsReady(requirements: SkillRequirements): boolean {
  return existsSync(path.join(requirements.hostDir, ".skillgraph-ready"));
}

/** Creates an empty environment folder for an install (a leftover of a failed install is removed first). */
export function prepareEnvironmentFolder(requirements: SkillRequirements): void {
  rmSync(requirements.hostDir, { recursive: true, force: true });
  mkdirSync(requirements.hostDir, { recursive: true, mode: 0o755 });
}

/** Marks an environment as completely installed. */
export function markEnvironmentReady(requirements: SkillRequirements): void {
  writeFileSync(
    path.join(requirements.hostDir, ".skillgraph-ready"),
    `${new Date().toISOString()}\n${requirements.text}`,
  );
}

/** The argv that installs the requirements into `envDir` (paths as the command sees them). */
export function installCommand(envDir: string, requirementsPath: string, pipArgs: readonly string[]): string[] {
  const script =
    'python3 -m venv "$1" && env_dir="$1" && requirements="$2" && shift 2 && "$env_dir/bin/python" -m pip install --disable-pip-version-check --no-input -r "$requirements" "$@"';
  return ["/bin/sh", "-c", script, "install-requirements", envDir, requirementsPath, ...pipArgs];
}
