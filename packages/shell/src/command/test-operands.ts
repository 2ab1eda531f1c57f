import type { SyntaxNode } from "./bash-parser.js";
import { hidesExpansion } from "./shell-expansions.js";
import type { ShellWord } from "./shell-line-types.js";

// `test` / `[`: `-v NAME` evaluates a subscript in NAME as arithmetic (`-v 'a[$(cmd)]'` runs cmd), and a word known
// only at run time may itself be `-v`. Shared by the walker (`[ ... ]`) and the builtin check (`test ...`).

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BINARY = new Set(["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]);

/**
 * Why the operands of a `test` (values in order, undefined for a word known only at run time) may make bash evaluate
 * a variable name as code, or undefined: a `-v` whose operand is not a plain name, or a word known only at run time
 * in operator position with a later operand that could be a subscripted name.
 */
export function testOperandProblem(args: ReadonlyArray<string | undefined>): string | undefined {
  for (const [index, arg] of args.entries()) {
    if (arg === "-v") {
      const name = args[index + 1];
      if (name === undefined || !PLAIN_NAME.test(name))
        return `test -v '${name ?? "…"}' is not a plain variable name (subscripts are evaluated as code)`;
    }
    if (arg !== undefined) continue;
    const before = args[index - 1];
    const after = args[index + 1];
    if ((before !== undefined && BINARY.has(before)) || (after !== undefined && BINARY.has(after))) continue;
    if (args.slice(index + 1).some((later) => later === undefined || later.includes("[")))
      return "a test operand known only at run time may be '-v', which evaluates the next operand as code";
  }
  return undefined;
}

/** What {@link walkTestCommand} needs from the walker. */
export interface TestCommandVisitor {
  arithmetic(node: SyntaxNode): void;
  word(node: SyntaxNode): ShellWord;
  opaque(piece: SyntaxNode, message: string): void;
}

/**
 * Walks `[ ... ]` / `[[ ... ]]`: operands are words; `[[`'s numeric comparisons and `-v` evaluate arithmetic; for `[`
 * (the test builtin) the operands in order go through {@link testOperandProblem}.
 */
export function walkTestCommand(node: SyntaxNode, visitor: TestCommandVisitor): void {
  const double = node.firstChild?.type === "[[";
  const operands: Array<string | undefined> = [];
  const visit = (expression: SyntaxNode): void => {
    const operator = expression.children.find((child) => child?.type === "test_operator")?.text;
    const arithmeticOperands =
      operator === "-v" || (double && ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"].includes(operator ?? ""));
    for (const child of expression.children) {
      if (!child || ["[", "]", "[[", "]]"].includes(child.type)) continue;
      if (!child.isNamed || child.type === "test_operator") operands.push(child.text);
      else if (["binary_expression", "unary_expression", "parenthesized_expression"].includes(child.type)) visit(child);
      else if (arithmeticOperands) {
        operands.push(child.text);
        visitor.arithmetic(child);
      } else if (child.type !== "regex") operands.push(visitor.word(child).value);
      else if (hidesExpansion(child.text))
        visitor.opaque(child, "a =~ pattern with an expansion the grammar does not show; match a literal pattern");
    }
  };
  visit(node);
  // `[` is the test builtin: a word known only at run time may be `-v` (`[[` reads its operators as syntax)
  const problem = double ? undefined : testOperandProblem(operands);
  if (problem) visitor.opaque(node, problem);
}
