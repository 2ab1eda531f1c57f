// Which file a command runs: programs on the fixed PATH, skill scripts (with their interpreter), deny by real name.
import { accessSync, closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import type { CommandPolicy } from "./command-policy.js";
import { programName } from "./command-rules.js";
import { realpathOrUndefined, scriptHostPath } from "./path-confinement.js";
import type { CommandCheckInput, ParsedCommand } from "./command-check-types.js";
import { type Refusal, refusal } from "./refusal.js";

/** The PATH executables are resolved from, whatever the environment says. */
export const DEFAULT_FIXED_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * Finds a bare program name on a fixed PATH (never the process's or the command's PATH, never the working directory).
 * Returns the absolute path, or undefined when no executable file of that name exists.
 * @param name a program name without `/`
 * @param searchPath colon-separated absolute directories @default DEFAULT_FIXED_PATH
 */
export function resolveExecutable(name: string, searchPath: string = DEFAULT_FIXED_PATH): string | undefined {
  if (name.includes("/") || name === "" || name === "." || name === "..") return undefined;
  for (const dir of searchPath.split(":")) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** True when `file` is a regular file (after symlinks) this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `#!` line of a file (without `#!`), read from its first 256 bytes; undefined when it has none or is not a
 * regular file (opened with O_NONBLOCK and O_NOFOLLOW and checked on the descriptor: a FIFO never blocks).
 */
export function readShebang(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(256);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString("utf8");
    if (!text.startsWith("#!")) return undefined;
    return text.slice(2).split("\n")[0]?.trim();
  } finally {
    closeSync(fd);
  }
}

const interpreterByExtension: Record<string, string> = {
  ".sh": "sh",
  ".bash": "bash",
  ".py": "python3",
  ".mjs": "node",
  ".js": "node",
  ".cjs": "node",
  ".rb": "ruby",
  ".pl": "perl",
};

/** Interpreter argv for a non-executable script (from its `#!` line, else its extension), resolved on the fixed PATH. */
export function interpreterFor(file: string, fixedPath: string): string[] | undefined {
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

function deniedByRealName(realName: string, policy: CommandPolicy) {
  return policy.deny.find((rule) => rule.prefix.length > 0 && programName(rule.prefix[0] as string) === realName);
}

/** Programs a wrapper runs (`env X`, `find -exec X`) are resolved on the fixed PATH too: an alias name of a denied one is denied. */
export function innerProgramsDenied(parsed: ParsedCommand, policy: CommandPolicy): Refusal | undefined {
  for (const layer of parsed.layers.slice(1)) {
    const name = layer[0] as string;
    const resolved = name.includes("/") ? name : resolveExecutable(name, policy.fixedPath);
    if (!resolved) continue;
    const realName = programName(realpathOrUndefined(resolved) ?? resolved);
    const denied = deniedByRealName(realName, policy);
    if (denied)
      return refusal(
        "denied",
        `'${name}' (run by '${programName(parsed.argv[0] as string)}') resolves to '${realName}', which is denied (${denied.source})`,
      );
  }
  return undefined;
}

/** The argv prefix that runs the typed program: its path on the fixed PATH, or a skill script (plus interpreter). */
export function resolveProgram(
  parsed: ParsedCommand,
  input: CommandCheckInput,
  policy: CommandPolicy,
): { ok: true; prefix: string[] } | Refusal {
  const typed = parsed.argv[0] as string;
  if (!typed.includes("/")) {
    const resolved = resolveExecutable(typed, policy.fixedPath);
    if (!resolved) return refusal("not-found", `program '${typed}' not found on ${policy.fixedPath}`);
    const realName = programName(realpathOrUndefined(resolved) ?? resolved);
    const denied = deniedByRealName(realName, policy);
    if (denied) return refusal("denied", `'${typed}' resolves to '${realName}', which is denied (${denied.source})`);
    const inner = innerProgramsDenied(parsed, policy);
    if (inner) return inner;
    return { ok: true, prefix: [resolved] };
  }
  const inner = innerProgramsDenied(parsed, policy);
  if (inner) return inner;
  const hostPath = scriptHostPath(typed, input);
  const skillDir = input.skill?.dir ? realpathOrUndefined(input.skill.dir) : undefined;
  const real = realpathOrUndefined(hostPath);
  if (!skillDir || !real) return refusal("not-found", `script '${typed}' not found in skill '${input.skill?.name}'`);
  const relative = path.relative(skillDir, real);
  if (relative.startsWith("..") || path.isAbsolute(relative) || !relative.includes(path.sep))
    return refusal("symlink-escape", `script '${typed}' leads outside the skill's folders through a symlink`);
  if (!lstatSync(real).isFile()) return refusal("not-found", `script '${typed}' is not a file`);
  if (isExecutableFile(real)) return { ok: true, prefix: [hostPath] };
  const interpreter = interpreterFor(real, policy.fixedPath);
  if (!interpreter)
    return refusal(
      "not-found",
      `script '${typed}' is not executable and has no known interpreter (add a #! line or chmod +x)`,
    );
  return { ok: true, prefix: [...interpreter, hostPath] };
}
