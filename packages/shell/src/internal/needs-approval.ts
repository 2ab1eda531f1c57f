import type { ApprovalCandidate, ApprovalRule } from "../hook/shell-hook-options.js";
import { matchesCommandRule, parseCommandRule } from "../policy/command-rule.js";

/** True when a `requireApproval` rule matches the command. */
export function needsApproval(rules: readonly ApprovalRule[], candidate: ApprovalCandidate): boolean {
  return rules.some((rule) => {
    if (typeof rule === "function") return rule(candidate);
    if (rule instanceof RegExp) return rule.test(candidate.command);
    const parsed = parseCommandRule(rule, "requireApproval");
    return parsed !== undefined && matchesCommandRule(parsed, candidate.argv);
  });
}
