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
