import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { withConfinedFolder } from "../internal/core.js";
import { integerSchema, MAX_TIMER_MS } from "../internal/core.js";
import { absolutePath, stringList } from "../internal/zod-options.js";
import { parseRequirementLine } from "./requirement-line.js";

/** Where a skill declares the Python packages its scripts need (the first that exists). */
export const REQUIREMENTS_FILES = ["requirements.txt", "scripts/requirements.txt"] as const;

/** What a skill's requirements file says, and the environment it gets. */
export interface SkillRequirements {
  /** Path of the requirements file relative to the skill folder; "" for packages declared in frontmatter (`depends.uv`). */
  file: string;
  /** Its lines without comments and blanks, in canonical form (what the approver sees and what pip is given). */
  packages: string[];
  text: string;
  /**
   * The folder for exactly this skill and these requirements (a changed file gets a new one). Only the host writes
   * in it: the readiness marker lives here, the environment itself in {@link SkillRequirements.hostDir}.
   */
  recordDir: string;
  /** The environment (venv) folder: the only part an install may write, so nothing the host trusts is kept in it. */
  hostDir: string;
}

/** The per-skill environments' options as a zod schema (the shell hook's `skillEnvironments` option). */
export const skillEnvironmentOptionsSchema = z.object(
  {
    /** Folder holding the environments (outside any skill folder). @default `$XDG_CACHE_HOME/skillgraph/envs` or `~/.cache/skillgraph/envs` */
    root: absolutePath().default(() => defaultEnvironmentRoot()),
    /** `interrupt` asks through LangGraph `interrupt()` before installing; `always` installs without asking; `never` refuses. @default "interrupt" */
    approve: z
      .enum(["interrupt", "always", "never"], { error: "must be 'interrupt', 'always' or 'never'" })
      .default("interrupt"),
    /** Extra pip arguments, e.g. `["--no-index", "--find-links", "/srv/wheels"]` (absolute folders there are made readable in the sandbox). */
    pipArgs: stringList().default([]),
    /** Time limit of one install. @default 600000 (10 minutes) */
    installTimeoutMs: integerSchema({ max: MAX_TIMER_MS }).default(600_000),
  },
  { error: "must be false or an object" },
);

/** Options of the per-skill environments (the shell hook's `skillEnvironments` option). */
export type SkillEnvironmentOptions = z.input<typeof skillEnvironmentOptionsSchema>;

/** Most requirement lines one skill may declare. */
const MAX_REQUIREMENTS = 200;
/** Name of the readiness marker in the record folder (outside the environment the install writes). */
const READY_MARKER = "ready";

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
      const lines = text
        .split(/\r?\n/)
        .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
        .filter((line) => line !== "");
      return checkedRequirements(skill.name, { file, label: file, lines, text }, root);
    }
    return undefined;
  });
  if (fromFile !== undefined) return fromFile;
  return declaredRequirements(skill.name, skill.dependencies?.uv ?? [], root);
}

/**
 * The environment of Python packages a skill declares in its frontmatter (tama's `depends.uv`) when it has no
 * requirements file: `file` is "". Same grammar and limits as a requirements file.
 */
function declaredRequirements(
  name: string,
  declared: readonly string[],
  root: string,
): SkillRequirements | { error: string } | undefined {
  if (declared.length === 0) return undefined;
  return checkedRequirements(name, { file: "", label: "depends.uv", lines: declared }, root);
}

/**
 * Requirement lines checked against the strict grammar (at most {@link MAX_REQUIREMENTS}), in canonical form, with the
 * environment folder named by skill name and content hash; an error names the first line that is not a plain
 * requirement.
 */
function checkedRequirements(
  name: string,
  declared: { file: string; label: string; lines: readonly string[]; text?: string },
  root: string,
): SkillRequirements | { error: string } {
  const { file, label, lines } = declared;
  if (lines.length > MAX_REQUIREMENTS)
    return { error: `skill '${name}': ${label} has ${lines.length} requirements (at most ${MAX_REQUIREMENTS})` };
  const packages: string[] = [];
  for (const line of lines) {
    const parsed = parseRequirementLine(line);
    if (!parsed.ok)
      return {
        error:
          `skill '${name}': ${label} line '${line.slice(0, 80)}' is not a plain package requirement: ` +
          `it ${parsed.message} (only names with version specifiers and simple markers are installed; ` +
          "no options, URLs, paths or archives)",
      };
    packages.push(parsed.requirement);
  }
  const text = declared.text ?? `${packages.join("\n")}\n`;
  const digest = createHash("sha256").update(`${process.version}\n${text}`).digest("hex").slice(0, 16);
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
  const recordDir = path.join(root, `${safeName}-${digest}`);
  return { file, packages, text, recordDir, hostDir: path.join(recordDir, "env") };
}

/**
 * Runs an install from an empty folder of its own holding only the checked requirement lines (`requirements.txt`):
 * nothing a workspace or a skill folder holds is visible to pip or to the code a package runs while it builds.
 */
export async function withInstallFolder<T>(
  requirements: SkillRequirements,
  install: (installDir: string) => Promise<T>,
): Promise<T> {
  const installDir = mkdtempSync(path.join(os.tmpdir(), "skillgraph-install-"));
  try {
    writeFileSync(path.join(installDir, "requirements.txt"), installRequirementsText(requirements), { flag: "wx" });
    return await install(installDir);
  } finally {
    rmSync(installDir, { recursive: true, force: true });
  }
}

/** True when the environment was installed completely (its marker is in the record folder, which no command writes). */
export function environmentIsReady(requirements: SkillRequirements): boolean {
  return existsSync(path.join(requirements.recordDir, READY_MARKER));
}

/**
 * Creates an empty environment folder for an install inside a fresh record folder (a leftover of a failed install,
 * marker included, is removed first; `rmSync` does not follow links an earlier install may have planted).
 */
export function prepareEnvironmentFolder(requirements: SkillRequirements): void {
  rmSync(requirements.recordDir, { recursive: true, force: true });
  mkdirSync(requirements.recordDir, { recursive: true, mode: 0o755 });
  mkdirSync(requirements.hostDir, { mode: 0o755 });
}

/**
 * Marks an environment as completely installed: written in the record folder (never inside the environment the
 * install could write) through the confined, no-follow open.
 * @returns a message when the marker cannot be written (the environment then counts as not installed)
 */
export async function markEnvironmentReady(
  requirements: SkillRequirements,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const written = await withConfinedFolder(requirements.recordDir, (folder) =>
    folder.writeFile(READY_MARKER, `${new Date().toISOString()}\n${requirements.packages.join("\n")}\n`, {
      mode: 0o644,
    }),
  );
  return written.ok
    ? { ok: true }
    : {
        ok: false,
        message: `skill environment ${requirements.recordDir}: cannot write its readiness marker (${written.message})`,
      };
}

/** The requirements file an install reads: the canonical lines only (written into the install's empty folder). */
export function installRequirementsText(requirements: SkillRequirements): string {
  return `${requirements.packages.join("\n")}\n`;
}

/** The argv that installs the requirements into `envDir` (paths as the command sees them). */
export function installCommand(envDir: string, requirementsPath: string, pipArgs: readonly string[]): string[] {
  const script =
    'python3 -m venv "$1" && env_dir="$1" && requirements="$2" && shift 2 && "$env_dir/bin/python" -m pip install --disable-pip-version-check --no-input -r "$requirements" "$@"';
  return ["/bin/sh", "-c", script, "install-requirements", envDir, requirementsPath, ...pipArgs];
}
