import { existsSync, lstatSync, openSync, readSync, closeSync } from "node:fs";
import path from "node:path";
import { parseShellWords } from "../command/parse-shell-words.js";
import { skillCommandGrant, type SkillCommandGrant } from "./allowed-tools-rules.js";
import { matchesCommandRule, programName } from "./command-rule.js";
import { FORBIDDEN_ENV_NAMES, type CommandPolicy } from "./command-policy.js";
import { hasParentSegment, isInside, realpathOfNearest, realpathOrUndefined } from "./confine-path.js";
import { refusal, type Refusal } from "./refusal.js";
import { isExecutableFile, resolveExecutable } from "./resolve-executable.js";

/** The skill a command runs for (run_skill_script). */
export interface CommandSkill {
  name: string;
  dir: string;
  allowedTools: readonly string[];
}

/** What to check: the command line and where it runs. */
export interface CommandCheckInput {
  command: string;
  /** `skill`: run_skill_script (relative executables resolve in the skill folder); `shell`: the general shell tool. */
  mode: "skill" | "shell";
  skill?: CommandSkill;
  /** Skills loaded now: their `Bash(...)` grants extend the allow list. */
  loadedSkills: readonly CommandSkill[];
  /** Host path of the thread's workspace (need not exist yet for {@link preflightCommand}). */
  workspaceDir: string;
  /** Working directory relative to the workspace. */
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

/** A command ready to run: absolute executable, host cwd, argv as typed (for approval rules and messages). */
export type CommandPlan =
  | { shell: false; argv: string[]; programArgv: string[]; cwd: string; display: string }
  | { shell: true; command: string; programArgv: string[]; cwd: string; display: string };

/** Result of a check. */
export type CommandCheck = { ok: true; plan: CommandPlan } | Refusal;

interface Parsed {
  argv: string[];
  cwd: string;
}

/**
 * The checks that need no file system (cheap enough for `authorize` on every call): env names, parsing, `..` and
 * absolute cwd, deny and allow lists on the typed program name, path-qualified executables outside `scripts/`.
 */
export function preflightCommand(input: CommandCheckInput, policy: CommandPolicy): { ok: true; argv: string[]; cwd: string } | Refusal {
  for (const name of Object.keys(input.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return refusal("env-not-allowed", `environment variable name '${name}' is not valid`);
    if (FORBIDDEN_ENV_NAMES.some((pattern) => pattern.test(name))) {
      return refusal("env-not-allowed", `environment variable '${name}' may not be set by a tool call (it changes which code runs)`);
    }
  }
  const cwdText = input.cwd ?? ".";
  if (cwdText.includes("\0")) return refusal("nul-byte", "cwd contains a NUL byte");
  if (path.isAbsolute(cwdText)) return refusal("absolute-path", `cwd '${cwdText}' must be relative to the workspace`);
  if (hasParentSegment(cwdText)) return refusal("path-traversal", `cwd '${cwdText}' may not contain '..'`);
  const cwd = path.resolve(input.workspaceDir, cwdText);
  if (policy.allowShellSyntax) return { ok: true, argv: [], cwd };
  const variables: Record<string, string> = { WORKSPACE: input.workspaceDir, OUT_DIR: path.join(input.workspaceDir, "out") };
  if (input.skill?.dir) variables.SKILL_DIR = input.skill.dir;
  const parsed = parseShellWords(input.command, { variables });
  if (!parsed.ok) return parsed;
  const argv = parsed.argv;
  const first = argv[0] as string;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) {
    return refusal("env-assignment", `'${first}' is an environment assignment; commands run without a shell and may not set variables this way`);
  }
  if (first.includes("/")) {
    const scriptCheck = checkScriptLocation(first, input);
    if (!scriptCheck.ok) return scriptCheck;
  }
  const programArgv = [programName(first), ...argv.slice(1)];
  const denied = policy.deny.find((rule) => matchesCommandRule(rule, programArgv));
  if (denied) return refusal("denied", `'${programArgv[0]}' is denied (${denied.source})`);
  if (!first.includes("/") && !isAllowed(programArgv, input, policy)) {
    return refusal("not-allowed", `'${describe(programArgv)}' is not in the allow list nor granted by a loaded skill's allowed-tools`);
  }
  return { ok: true, argv, cwd };
}

/**
 * All checks, including the file system: cwd and executables resolved with symlinks, executable found on the fixed
 * PATH (never the workspace), arguments naming paths outside the workspace/skill folder refused (when confinePaths).
 * @param input the command and where it runs
 * @param policy allow/deny lists and path rules
 * @example planCommand({ command: "git status", mode: "shell", loadedSkills: [], workspaceDir: "/tmp/ws" }, policy)
 */
export function planCommand(input: CommandCheckInput, policy: CommandPolicy): CommandCheck {
  const preflight = preflightCommand(input, policy);
  if (!preflight.ok) return preflight;
  const { cwd } = preflight;
  const workspaceReal = realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir;
  const cwdReal = realpathOfNearest(cwd);
  if (!isInside(workspaceReal, cwdReal)) return refusal("symlink-escape", `cwd '${input.cwd}' leads outside the workspace through a symlink`);
  if (!existsSync(cwd)) return refusal("not-found", `cwd '${input.cwd}' does not exist in the workspace`);
  if (policy.allowShellSyntax) {
    return { ok: true, plan: { shell: true, command: input.command, programArgv: ["sh", "-c", input.command], cwd, display: input.command } };
  }
  const parsed: Parsed = { argv: preflight.argv, cwd };
  const executable = resolveProgram(parsed, input, policy);
  if (!executable.ok) return executable;
  const args = confineArguments(parsed, input, policy);
  if (!args.ok) return args;
  const typed = preflight.argv;
  return {
    ok: true,
    plan: { shell: false, argv: [...executable.prefix, ...args.args], programArgv: [programName(typed[0] as string), ...typed.slice(1)], cwd, display: describe(typed) },
  };
}

function describe(argv: readonly string[]): string {
  return argv.map((part) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(part) ? part : `'${part.replaceAll("'", "'\\''")}'`)).join(" ");
}

function isAllowed(programArgv: readonly string[], input: CommandCheckInput, policy: CommandPolicy): boolean {
  if (!policy.allow) return true;
  if (policy.allow.some((rule) => matchesCommandRule(rule, programArgv))) return true;
  const skills = input.skill ? [input.skill, ...input.loadedSkills] : input.loadedSkills;
  return skills.some((skill) => grantAllows(grantOf(skill), programArgv));
}

const grantCache = new WeakMap<readonly string[], SkillCommandGrant>();

/** The skill's grant, cached per allowed-tools array (metadata objects are immutable snapshots). */
export function grantOf(skill: CommandSkill): SkillCommandGrant {
  let grant = grantCache.get(skill.allowedTools);
  if (!grant) {
    grant = skillCommandGrant(skill.name, skill.allowedTools);
    grantCache.set(skill.allowedTools, grant);
  }
  return grant;
}

function grantAllows(grant: SkillCommandGrant, programArgv: readonly string[]): boolean {
  return grant.anyCommand || grant.rules.some((rule) => matchesCommandRule(rule, programArgv));
}

function scriptHostPath(typed: string, input: CommandCheckInput): string {
  if (path.isAbsolute(typed)) return path.normalize(typed);
  const base = input.mode === "skill" && input.skill?.dir ? input.skill.dir : path.resolve(input.workspaceDir, input.cwd ?? ".");
  return path.resolve(base, typed);
}

function checkScriptLocation(typed: string, input: CommandCheckInput): { ok: true } | Refusal {
  if (hasParentSegment(typed)) return refusal("path-traversal", `executable '${typed}' may not contain '..'`);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  if (!skillDir) return refusal("executable-outside-scripts", `'${typed}' is a path; only program names (resolved on a fixed PATH) run here, skill scripts run with run_skill_script`);
  const scripts = path.join(skillDir, "scripts");
  if (!isInside(scripts, scriptHostPath(typed, input)) || scriptHostPath(typed, input) === scripts) {
    return refusal("executable-outside-scripts", `'${typed}' is outside the skill's scripts/ folder; only its scripts and programs on the fixed PATH run`);
  }
  return { ok: true };
}

function resolveProgram(parsed: Parsed, input: CommandCheckInput, policy: CommandPolicy): { ok: true; prefix: string[] } | Refusal {
  const typed = parsed.argv[0] as string;
  if (!typed.includes("/")) {
    const resolved = resolveExecutable(typed, policy.fixedPath);
    if (!resolved) return refusal("not-found", `program '${typed}' not found on ${policy.fixedPath}`);
    const realName = programName(realpathOrUndefined(resolved) ?? resolved);
    const denied = policy.deny.find((rule) => rule.prefix.length > 0 && programName(rule.prefix[0] as string) === realName);
    if (denied) return refusal("denied", `'${typed}' resolves to '${realName}', which is denied (${denied.source})`);
    return { ok: true, prefix: [resolved] };
  }
  const hostPath = scriptHostPath(typed, input);
  const scripts = realpathOrUndefined(path.join(input.skill?.dir ?? "", "scripts"));
  const real = realpathOrUndefined(hostPath);
  if (!scripts || !real) return refusal("not-found", `script '${typed}' not found in skill '${input.skill?.name}'`);
  if (!isInside(scripts, real)) return refusal("symlink-escape", `script '${typed}' leads outside the skill's scripts/ folder through a symlink`);
  if (!lstatSync(real).isFile()) return refusal("not-found", `script '${typed}' is not a file`);
  if (isExecutableFile(real)) return { ok: true, prefix: [hostPath] };
  const interpreter = interpreterFor(real, policy.fixedPath);
  if (!interpreter) return refusal("not-found", `script '${typed}' is not executable and has no known interpreter (add a #! line or chmod +x)`);
  return { ok: true, prefix: [...interpreter, hostPath] };
}

const interpreterByExtension: Record<string, string> = { ".sh": "sh", ".bash": "bash", ".py": "python3", ".mjs": "node", ".js": "node", ".cjs": "node", ".rb": "ruby", ".pl": "perl" };

function interpreterFor(file: string, fixedPath: string): string[] | undefined {
  const shebang = readShebang(file);
  let name: string | undefined;
  let extra: string[] = [];
  if (shebang) {
    const parts = shebang.split(/\s+/).filter(Boolean);
    const program = programName(parts[0] ?? "");
    if (program === "env") {
      const rest = parts.slice(1).filter((part) => part !== "-S");
      name = rest[0];
      extra = rest.slice(1);
    } else {
      name = program;
      extra = parts.slice(1);
    }
  } else name = interpreterByExtension[path.extname(file)];
  if (!name) return undefined;
  const resolved = resolveExecutable(name, fixedPath);
  return resolved ? [resolved, ...extra] : undefined;
}

function readShebang(file: string): string | undefined {
  const buffer = Buffer.alloc(256);
  const fd = openSync(file, "r");
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString("utf8");
    if (!text.startsWith("#!")) return undefined;
    return text.slice(2).split("\n")[0]?.trim();
  } finally {
    closeSync(fd);
  }
}

function confineArguments(parsed: Parsed, input: CommandCheckInput, policy: CommandPolicy): { ok: true; args: string[] } | Refusal {
  const args = parsed.argv.slice(1);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  const roots = [realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir];
  if (skillDir) roots.push(realpathOrUndefined(skillDir) ?? skillDir);
  const out: string[] = [];
  for (const arg of args) {
    let value = arg;
    if (skillDir && !path.isAbsolute(arg) && /^(\.\/)?scripts\//.test(arg) && !hasParentSegment(arg) && !existsSync(path.resolve(parsed.cwd, arg)) && existsSync(path.join(skillDir, arg))) {
      value = path.join(skillDir, arg);
    }
    out.push(value);
    if (!policy.confinePaths) continue;
    const candidates = [value];
    const equals = value.indexOf("=");
    if (value.startsWith("-") && equals > 0) candidates.push(value.slice(equals + 1));
    for (const candidate of candidates) {
      const problem = checkArgumentPath(candidate, parsed.cwd, roots, policy);
      if (problem) return problem;
    }
  }
  return { ok: true, args: out };
}

function checkArgumentPath(candidate: string, cwd: string, roots: readonly string[], policy: CommandPolicy): Refusal | undefined {
  if (candidate === "" || candidate.startsWith("-") && !candidate.includes("/")) return undefined;
  const absolute = path.isAbsolute(candidate);
  if (absolute) {
    const normalized = path.normalize(candidate);
    if (policy.readablePaths.some((allowed) => isInside(allowed, normalized))) return undefined;
    if (!roots.some((root) => isInside(root, realpathOfNearest(normalized)))) {
      return refusal("path-outside-workspace", `argument '${candidate}' names a path outside the workspace and the skill folder`);
    }
    return undefined;
  }
  const resolved = path.resolve(cwd, candidate);
  if (hasParentSegment(candidate) && !roots.some((root) => isInside(root, resolved))) {
    return refusal("path-traversal", `argument '${candidate}' climbs out of the workspace with '..'`);
  }
  if (!candidate.includes("/") && !existsSync(resolved)) return undefined;
  const real = realpathOfNearest(resolved);
  if (!roots.some((root) => isInside(root, real))) {
    return refusal("symlink-escape", `argument '${candidate}' leads outside the workspace through a symlink`);
  }
  return undefined;
}
