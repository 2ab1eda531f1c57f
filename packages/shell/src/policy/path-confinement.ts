// Path confinement of a command: cwd, script location and arguments kept inside the workspace and the skill folder.
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { isInsideFolder } from "../internal/core.js";
import type { CommandPolicy } from "./command-policy.js";
import type { CommandCheckInput, ParsedCommand } from "./command-check-types.js";
import { type Refusal, refusal } from "./refusal.js";

const PARENT_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** True when a relative path has a `..` segment. */
export function hasParentSegment(candidate: string): boolean {
  return PARENT_SEGMENT.test(candidate);
}

/** Where each segment of `candidate` ends in its text (its prefix of n segments is the text up to `ends[n - 1]`). */
function segmentEnds(candidate: string): number[] {
  const ends: number[] = [];
  let index = 0;
  for (;;) {
    while (candidate.charCodeAt(index) === 47) index += 1;
    if (index >= candidate.length) return ends;
    const slash = candidate.indexOf("/", index);
    index = slash < 0 ? candidate.length : slash;
    ends.push(index);
  }
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
  const ends = segmentEnds(candidate);
  const prefix = (count: number) => (count === 0 ? (absolute ? "/" : "") : candidate.slice(0, ends[count - 1]));
  // invariant: prefix(low) exists (or is the root / empty), prefix(high) does not
  let low = 0;
  let high = ends.length;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (nativeRealpath(prefix(middle)) === undefined) high = middle;
    else low = middle;
  }
  const base = low === 0 ? (absolute ? "/" : undefined) : nativeRealpath(prefix(low));
  if (base === undefined) return candidate;
  return path.join(base, low === 0 ? candidate : candidate.slice(ends[low - 1]));
}

/** Host path of a path-qualified executable: relative ones resolve in the skill folder (skill mode) or the cwd. */
export function scriptHostPath(typed: string, input: CommandCheckInput): string {
  if (path.isAbsolute(typed)) return path.normalize(typed);
  const base =
    input.mode === "skill" && input.skill?.dir ? input.skill.dir : path.resolve(input.workspaceDir, input.cwd ?? ".");
  return path.resolve(base, typed);
}

/** True when an absolute path is readable by policy or lies (symlinks resolved) inside one of the roots. */
function absolutePathAllowed(candidate: string, roots: readonly string[], policy: CommandPolicy): boolean {
  const normalized = path.normalize(candidate);
  if (policy.readablePaths.some((allowed) => isInsideFolder(normalized, allowed))) return true;
  return roots.some((root) => isInsideFolder(realpathOfNearest(normalized), root));
}

/** Characters that join several paths in one word (`"$WORK_DIR|$OUTPUT_DIR"`, `a:b`, `--x=a,b`). */
const PATH_JOINERS = /[|,;:= ]/;

/** True when something (a file, folder or symlink, even a dangling one) is at `candidate`. */
function entryExists(candidate: string): boolean {
  try {
    lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}

/**
 * A word that joins several paths (`"$WORK_DIR|$OUTPUT_DIR"`) is checked piece by piece: its first piece must lie in
 * a root, every other absolute piece too, and no piece may climb with `..`. Taken as one path, such a word names
 * something under a new entry beside a root (`<workspace>|...`); it is accepted only while that entry does not exist,
 * so the word reads nothing and can at most create that entry (inside the sandbox not even that: its root is
 * read-only), and no later word can reach through it.
 */
function joinedPathsAllowed(candidate: string, roots: readonly string[], policy: CommandPolicy): boolean {
  const joiner = candidate.search(PATH_JOINERS);
  if (joiner < 0) return false;
  const slash = candidate.indexOf("/", joiner);
  if (entryExists(slash < 0 ? candidate : candidate.slice(0, slash))) return false;
  const [head, ...rest] = candidate.split(PATH_JOINERS);
  if ([head, ...rest].some((piece) => piece !== undefined && hasParentSegment(piece))) return false;
  if (head === undefined || !roots.some((root) => isInsideFolder(realpathOfNearest(path.normalize(head)), root)))
    return false;
  return rest.every((piece) => !path.isAbsolute(piece) || absolutePathAllowed(piece, roots, policy));
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
    if (absolutePathAllowed(candidate, roots, policy) || joinedPathsAllowed(candidate, roots, policy)) return undefined;
    return refusal(
      "path-outside-workspace",
      `argument '${candidate}' names a path outside the workspace and the skill folder`,
    );
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

/**
 * Refuses a path-qualified executable unless it lies (lexically) inside a folder of the running skill (`scripts/`,
 * `custom-scripts/`, ...): files at the skill's top level (SKILL.md) and anything outside the skill do not run.
 */
export function checkScriptLocation(typed: string, input: CommandCheckInput): { ok: true } | Refusal {
  if (hasParentSegment(typed)) return refusal("path-traversal", `executable '${typed}' may not contain '..'`);
  const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
  if (!skillDir)
    return refusal(
      "executable-outside-scripts",
      `'${typed}' is a path; only program names (resolved on a fixed PATH) run here, skill scripts run with run_skill_script`,
    );
  const relative = path.relative(skillDir, scriptHostPath(typed, input));
  if (relative.startsWith("..") || path.isAbsolute(relative) || !relative.includes(path.sep)) {
    return refusal(
      "executable-outside-scripts",
      `'${typed}' is not in a folder of the skill (such as scripts/); only its scripts and programs on the fixed PATH run`,
    );
  }
  return { ok: true };
}
