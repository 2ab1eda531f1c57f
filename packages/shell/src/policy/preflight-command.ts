import path from "node:path";
import { parseShellWords } from "../command/parse-shell-words.js";
import { checkScriptLocation } from "./check-script-location.js";
import type { CommandCheckInput } from "./command-check-input.js";
import type { CommandPolicy } from "./command-policy.js";
import { commandLayers } from "./command-layers.js";
import { programName, matchesCommandRule } from "./command-rule.js";
import { hasParentSegment } from "./confine-path.js";
import { describeArgv } from "./describe-argv.js";
import { isCommandAllowed } from "./is-command-allowed.js";
import { refusal, type Refusal } from "./refusal.js";

/**
 * The checks that need no file system (cheap enough for `authorize` on every call): env names, parsing, `..` and
 * absolute cwd, deny and allow lists on the typed program name, path-qualified executables outside `scripts/`.
 */
export function preflightCommand(input: CommandCheckInput, policy: CommandPolicy): { ok: true; argv: string[]; cwd: string; layers: string[][] } | Refusal {
  for (const name of Object.keys(input.env ?? {})) {
    const problem = checkEnvName(name, policy);
    if (problem) return problem;
  }
  const cwdText = input.cwd ?? ".";
  if (cwdText.includes("\0")) return refusal("nul-byte", "cwd contains a NUL byte");
  if (path.isAbsolute(cwdText)) return refusal("absolute-path", `cwd '${cwdText}' must be relative to the workspace`);
  if (hasParentSegment(cwdText)) return refusal("path-traversal", `cwd '${cwdText}' may not contain '..'`);
  const cwd = path.resolve(input.workspaceDir, cwdText);
  if (policy.allowShellSyntax) return { ok: true, argv: [], cwd, layers: [] };
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
  const unwrapped = commandLayers(argv);
  const { layers } = unwrapped;
  for (const layer of layers) {
    const denied = policy.deny.find((rule) => matchesCommandRule(rule, layer));
    if (denied) return refusal("denied", `'${describeArgv(layer)}' is denied (${denied.source})${layer === layers[0] ? "" : ` and runs inside '${programName(first)}'`}`);
  }
  if (!unwrapped.ok) return refusal("opaque-command", unwrapped.message);
  for (const { name } of unwrapped.assignments) {
    const problem = checkEnvName(name, policy);
    if (problem) return problem;
  }
  // a skill's own script (path-qualified) needs no allow rule, but every program it wraps does
  const mustBeAllowed = first.includes("/") ? unwrapped.literal.slice(1) : unwrapped.literal;
  for (const layer of mustBeAllowed) {
    if (!isCommandAllowed(layer, input, policy)) {
      return refusal("not-allowed", `'${describeArgv(layer)}' is not in the allow list nor granted by a loaded skill's allowed-tools`);
    }
  }
  return { ok: true, argv, cwd, layers };
}

function checkEnvName(name: string, policy: CommandPolicy): Refusal | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return refusal("env-not-allowed", `environment variable name '${name}' is not valid`);
  if (!policy.envAllow.has(name)) {
    const allowed = [...policy.envAllow].join(", ") || "none";
    return refusal("env-not-allowed", `environment variable '${name}' may not be set by a tool call (allowed: ${allowed})`);
  }
  return undefined;
}
