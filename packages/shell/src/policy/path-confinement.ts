// Path confinement of a command: cwd, script location and arguments kept inside the workspace and the skill folder.
import { closeSync, existsSync, openSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { isInsideFolder } from "../internal/core.js";
import type { CommandPolicy } from "./command-policy.js";
import type { CommandCheckInput, ParsedCommand } from "./command-check-types.js";
import { type Refusal, refusal } from "./refusal.js";

/** True when a relative path has a `..` segment. */
export function hasParentSegment(candidate: string): boolean {
  return candidate.split(/[\\/]/).includes("..");
}

/** realpath, or undefined when the path does not exist. */
export function realpathOrUndefined(candidate: string): string | undefined {
  try {
    return realpathSync(candidate);
  } catch {
    return undefined;
  }
}

/** Linux's O_PATH (not in fs.constants): a descriptor that only names a file, opening no device and reading nothing. */
const O_PATH = 0o10000000;
const onLinux = process.platform === "linux";

/**
 * The real path of an existing path, or undefined when it does not exist (or is too long to name). On Linux the
 * kernel resolves it in one walk (open with O_PATH, read back `/proc/self/fd/N`): glibc's realpath(3) looks up every
 * prefix again, which costs the square of the depth (30 ms for a path through 1 000 existing folders).
 */
function nativeRealpath(candidate: string): string | undefined {
  if (onLinux) {
    let fd: number;
    try {
      fd = openSync(candidate, O_PATH); // libuv adds O_CLOEXEC
    } catch {
      return undefined;
    }
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // /proc not mounted: fall through to realpath(3)
    } finally {
      closeSync(fd);
    }
  }
  try {
    return realpathSync.native(candidate);
  } catch {
    return undefined;
  }
}

/**
 * The real path of the deepest existing ancestor of `candidate` joined with the rest (resolves symlinked parents).
 * The ancestor is found by bisection over the path's segments (existence is monotone along them), so a path of n
 * segments costs O(log n) lookups, never one per segment.
 */
export function realpathOfNearest(candidate: string): string {
  const whole = nativeRealpath(candidate);
  if (whole !== undefined) return whole;
  const absolute = path.isAbsolute(candidate);
  const segments = candidate.split("/").filter((segment) => segment !== "");
  const prefix = (count: number) => (absolute ? "/" : "") + segments.slice(0, count).join("/");
  // invariant: prefix(low) exists (or is the root / empty), prefix(high) does not
  let low = 0;
  let high = segments.length;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (nativeRealpath(prefix(middle)) === undefined) high = middle;
    else low = middle;
  }
  const base = low === 0 ? (absolute ? "/" : undefined) : nativeRealpath(prefix(low));
  if (base === undefined) return candidate;
  return path.join(base, ...segments.slice(low));
}

/** Host path of a path-qualified executable: relative ones resolve in the skill folder (skill mode) or the cwd. */
export function scriptHostPath(typed: string, input: CommandCheckInput): string {
  if (path.isAbsolute(typed)) return path.normalize(typed);
  const base =
    input.mode === "skill" && input.skill?.dir ? input.skill.dir : path.resolve(input.workspaceDir, input.cwd ?? ".");
  return path.resolve(base, typed);
}

/** Refuses an argument naming a path outside the roots (absolute, climbing with `..`, or through a symlink). */
export function checkArgumentPath(
  candidate: string,
  cwd: string,
  roots: readonly string[],
  policy: CommandPolicy,
): Refusal | undefined {
  if (candidate === "" || (candidate.startsWith("-") && !candidate.includes("/"))) return undefined;
  const absolute = path.isAbsolute(candidate);
  if (absolute) {
    const normalized = path.normalize(candidate);
    if (policy.readablePaths.some((allowed) => isInsideFolder(normalized, allowed))) return undefined;
    if (!roots.some((root) => isInsideFolder(realpathOfNearest(normalized), root))) {
      return refusal(
        "path-outside-workspace",
        `argument '${candidate}' names a path outside the workspace and the skill folder`,
      );
    }
    return undefined;
  }
  const resolved = path.resolve(cwd, candidate);
  if (hasParentSegment(candidate) && !roots.some((root) => isInsideFolder(resolved, root))) {
    return refusal("path-traversal", `argument '${candidate}' climbs out of the workspace with '..'`);
  }
  if (!candidate.includes("/") && !existsSync(resolved)) return undefined;
  const real = realpathOfNearest(resolved);
  if (!roots.some((root) => isInsideFolder(real, root))) {
    return refusal("symlink-escape", `argument '${candidate}' leads outside the workspace through a symlink`);
  }
  return undefined;
}

/** The arguments to run (`scripts/…` mapped into the skill folder), each checked against the workspace/skill roots when confinePaths. */
export function confineArguments(
  parsed: ParsedCommand,
  input: CommandCheckInput,
  policy: CommandPolicy,
): { ok: true; args: string[] } | Refusal {
  const args = parsed.argv.slice(1);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  const roots = [realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir];
  if (skillDir) roots.push(realpathOrUndefined(skillDir) ?? skillDir);
  const out: string[] = [];
  for (const arg of args) {
    let value = arg;
    if (
      skillDir &&
      !path.isAbsolute(arg) &&
      /^(\.\/)?scripts\//.test(arg) &&
      !hasParentSegment(arg) &&
      !existsSync(path.resolve(parsed.cwd, arg)) &&
      existsSync(path.join(skillDir, arg))
    ) {
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

/** Refuses a path-qualified executable unless it lies (lexically) inside the running skill's `scripts/` folder. */
export function checkScriptLocation(typed: string, input: CommandCheckInput): { ok: true } | Refusal {
  if (hasParentSegment(typed)) return refusal("path-traversal", `executable '${typed}' may not contain '..'`);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  if (!skillDir)
    return refusal(
      "executable-outside-scripts",
      `'${typed}' is a path; only program names (resolved on a fixed PATH) run here, skill scripts run with run_skill_script`,
    );
  const scripts = path.join(skillDir, "scripts");
  if (!isInsideFolder(scriptHostPath(typed, input), scripts) || scriptHostPath(typed, input) === scripts) {
    return refusal(
      "executable-outside-scripts",
      `'${typed}' is outside the skill's scripts/ folder; only its scripts and programs on the fixed PATH run`,
    );
  }
  return { ok: true };
}
