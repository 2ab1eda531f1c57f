import { lstatSync } from "node:fs";
import path from "node:path";
import type { CommandCheckInput } from "./command-check-input.js";
import type { CommandPolicy } from "./command-policy.js";
import { programName } from "./command-rule.js";
import { isInside, realpathOrUndefined } from "./confine-path.js";
import type { ParsedCommand } from "./parsed-command.js";
import { refusal, type Refusal } from "./refusal.js";
import { isExecutableFile, resolveExecutable } from "./resolve-executable.js";
import { interpreterFor } from "./script-interpreter.js";
import { scriptHostPath } from "./script-host-path.js";

function deniedByRealName(realName: string, policy: CommandPolicy) {
  return policy.deny.find((rule) => rule.prefix.length > 0 && programName(rule.prefix[0] as string) === realName);
}

/** Programs a wrapper runs (`env X`, `find -exec X`) are resolved on the fixed PATH too: an alias name of a denied one is denied. */
function innerProgramsDenied(parsed: ParsedCommand, policy: CommandPolicy): Refusal | undefined {
  for (const layer of parsed.layers.slice(1)) {
    const name = layer[0] as string;
    const resolved = name.includes("/") ? name : resolveExecutable(name, policy.fixedPath);
    if (!resolved) continue;
    const realName = programName(realpathOrUndefined(resolved) ?? resolved);
    const denied = deniedByRealName(realName, policy);
    if (denied) return refusal("denied", `'${name}' (run by '${programName(parsed.argv[0] as string)}') resolves to '${realName}', which is denied (${denied.source})`);
  }
  return undefined;
}

/** The argv prefix that runs the typed program: its path on the fixed PATH, or a skill script (plus interpreter). */
export function resolveProgram(parsed: ParsedCommand, input: CommandCheckInput, policy: CommandPolicy): { ok: true; prefix: string[] } | Refusal {
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
