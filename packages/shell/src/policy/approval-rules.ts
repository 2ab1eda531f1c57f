import type { ApprovalCandidate, ApprovalRule } from "./approval-types.js";
import { InvalidOptionsError } from "../internal/core.js";
import { matchesCommandRule, parseCommandRule, type CommandRule } from "./command-rules.js";

/** A `requireApproval` rule checked once at construction. */
export type CompiledApprovalRule =
  | { kind: "prefix"; rule: CommandRule }
  | { kind: "pattern"; pattern: RegExp }
  | { kind: "predicate"; test: (candidate: ApprovalCandidate) => boolean };

/**
 * Checks and compiles `requireApproval`: strings are command prefixes (`git push` covers `git push origin main`),
 * RegExps lose their `g`/`y` flags (a stateful `lastIndex` would skip every other match), functions are kept.
 * @throws InvalidOptionsError naming the rule that is none of these
 */
export function compileApprovalRules(rules: readonly ApprovalRule[] | undefined): CompiledApprovalRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules))
    throw new InvalidOptionsError({ option: "requireApproval", value: rules, message: "must be an array of rules" });
  return rules.map((rule, index): CompiledApprovalRule => {
    const option = `requireApproval[${index}]`;
    if (typeof rule === "string") {
      const parsed = parseCommandRule(rule, option, { prefix: true });
      if (!parsed || parsed.prefix.length === 0) {
        throw new InvalidOptionsError({
          option,
          value: rule,
          message: `'${rule}' is not a command prefix such as 'git push' or 'rm'`,
        });
      }
      return { kind: "prefix", rule: parsed };
    }
    if (rule instanceof RegExp)
      return { kind: "pattern", pattern: new RegExp(rule.source, rule.flags.replace(/[gy]/g, "")) };
    if (typeof rule === "function") return { kind: "predicate", test: rule };
    throw new InvalidOptionsError({
      option,
      value: rule,
      message: "must be a command prefix string, a RegExp or a function",
    });
  });
}

/**
 * True when a rule matches the command: a prefix rule or pattern matches any layer the command runs (so `env git push`
 * and `git -C repo push` need the approval that `git push` needs); a predicate that throws counts as a match (fail closed).
 */
export function needsApproval(rules: readonly CompiledApprovalRule[], candidate: ApprovalCandidate): boolean {
  const layers = candidate.layers.length > 0 ? candidate.layers : [candidate.argv];
  return rules.some((rule) => {
    switch (rule.kind) {
      case "prefix":
        return layers.some((layer) => matchesCommandRule(rule.rule, layer, "broad"));
      case "pattern":
        return rule.pattern.test(candidate.command) || layers.some((layer) => rule.pattern.test(layer.join(" ")));
      case "predicate":
        try {
          return rule.test(candidate) !== false;
        } catch {
          return true;
        }
    }
  });
}
