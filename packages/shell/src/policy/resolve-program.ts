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

/** The argv prefix that runs the typed program: its path on the fixed PATH, or a skill script (plus interpreter). */
export function resolveProgram(parsed: ParsedCommand, input: CommandCheckInput, policy: CommandPolicy): { ok: true; prefix: string[] } | Refusal {
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
