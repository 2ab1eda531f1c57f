import { existsSync } from "node:fs";
import path from "node:path";
import { checkArgumentPath } from "./check-argument-path.js";
import type { CommandCheckInput } from "./command-check-input.js";
import type { CommandPolicy } from "./command-policy.js";
import { hasParentSegment, realpathOrUndefined } from "./confine-path.js";
import type { ParsedCommand } from "./parsed-command.js";
import type { Refusal } from "./refusal.js";

/** The arguments to run (`scripts/…` mapped into the skill folder), each checked against the workspace/skill roots when confinePaths. */
export function confineArguments(parsed: ParsedCommand, input: CommandCheckInput, policy: CommandPolicy): { ok: true; args: string[] } | Refusal {
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
