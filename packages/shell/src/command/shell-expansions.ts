// `${...}` expansions and arithmetic: the parts of bash that can run code hidden in a variable's value.
import type { SyntaxNode } from "./bash-parser.js";
import type { ShellWord } from "./shell-line-types.js";

/**
 * Variables bash or the runtime gives a meaning: setting one changes what runs (PATH, BASH_ENV, ENV, IFS, PS4 with
 * `set -x`, CDPATH, GLOBIGNORE, SHELLOPTS, ...) or what the checker assumed (HOME, PWD, the runtime's locations).
 */
const SPECIAL = new Set([
  "PATH",
  "HOME",
  "PWD",
  "OLDPWD",
  "CDPATH",
  "IFS",
  "ENV",
  "BASH_ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "GLOBIGNORE",
  "EXECIGNORE",
  "FIGNORE",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "PROMPT_COMMAND",
  "PROMPT_DIRTRIM",
  "HISTFILE",
  "HISTCONTROL",
  "INPUTRC",
  "HOSTFILE",
  "MAIL",
  "MAILPATH",
  "MAILCHECK",
  "POSIXLY_CORRECT",
  "TMOUT",
  "TMPDIR",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "WORKSPACE",
  "OUT_DIR",
  "SKILL_DIR",
  "SKILL_NAME",
  "VIRTUAL_ENV",
]);

/** True for names bash or the runtime give a meaning (see SPECIAL), including every `BASH*`, `LD_*`, `SKILLGRAPH_*`. */
export function isSpecialVariable(name: string): boolean {
  return (
    SPECIAL.has(name) || /^(BASH|LD_|SKILLGRAPH_|GIT_|PYTHON)/.test(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
  );
}

/** Variables bash keeps as numbers: arithmetic may read them. */
export const NUMERIC_SPECIALS: ReadonlySet<string> = new Set([
  "?",
  "#",
  "$",
  "!",
  "RANDOM",
  "SRANDOM",
  "SECONDS",
  "LINENO",
  "PPID",
  "UID",
  "EUID",
  "BASHPID",
  "EPOCHSECONDS",
  "OPTIND",
]);

/**
 * Text the grammar kept as a plain leaf although bash expands it: an unescaped backtick, or `$(`, `${`, `$[`, `$name`
 * or a special parameter inside (backslash pairs are skipped, so `\\$(x)` counts and `\$(x)` does not).
 */
export function hidesExpansion(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") index += 1;
    else if (char === "`") return true;
    else if (char === "$" && /[({[A-Za-z_0-9@*#?$!-]/.test(text[index + 1] ?? "")) return true;
  }
  return false;
}

/** Callbacks of {@link expansionProblem}. */
export interface ExpansionVisitor {
  word(node: SyntaxNode): ShellWord;
  arithmetic(node: SyntaxNode): void;
  assign(name: string, numeric: boolean): void;
}

const PLAIN_OPERATORS = new Set([
  ":-",
  "-",
  ":+",
  "+",
  ":?",
  "?",
  "%",
  "%%",
  "#",
  "##",
  "/",
  "//",
  "/#",
  "/%",
  "^",
  "^^",
  ",",
  ",,",
]);

/**
 * Checks one `${...}`: indirect references (`${!x}`) and transformations (`${x@P}` runs prompt code) are refused,
 * subscripts and `${x:offset}` are arithmetic, `${x:=v}` assigns. Returns the variable, the operator and any problem.
 */
export function expansionProblem(
  node: SyntaxNode,
  visitor: ExpansionVisitor,
): { name?: string; operator?: string; problem?: string } {
  const state: ExpansionState = { afterName: false };
  for (const child of node.children) {
    if (!child || child.type === "${" || child.type === "}") continue;
    const problem = state.afterName
      ? operandProblem(node, child, state, visitor)
      : nameProblem(node, child, state, visitor);
    if (problem !== undefined) return { problem };
  }
  const { name, operator } = state;
  if (operator?.startsWith("@"))
    return { problem: `'${node.text}': \${x@...} transformations are refused (@P runs prompt code)` };
  if ((operator === "=" || operator === ":=") && name !== undefined) visitor.assign(name, false);
  return { ...(name !== undefined ? { name } : {}), ...(operator !== undefined ? { operator } : {}) };
}

/** What {@link expansionProblem} has read of `${...}` so far. */
interface ExpansionState {
  name?: string;
  operator?: string;
  afterName: boolean;
}

/** A piece before and including the variable name (`#` for a length, the name or `name[index]`). */
function nameProblem(
  node: SyntaxNode,
  child: SyntaxNode,
  state: ExpansionState,
  visitor: ExpansionVisitor,
): string | undefined {
  if (!child.isNamed) {
    if (child.type === "!") return `'${node.text}' reads a variable whose name is known only at run time`;
    return child.type === "#" ? undefined : `'${node.text}' is an expansion the checker does not know`;
  }
  state.afterName = true;
  if (child.type === "subscript") {
    state.name = child.childForFieldName("name")?.text;
    const index = child.childForFieldName("index");
    if (index && !["@", "*"].includes(index.text)) visitor.arithmetic(index);
  } else if (child.type === "variable_name" || child.type === "special_variable_name") state.name = child.text;
  else return `'${node.text}' is an expansion the checker does not know`;
  return undefined;
}

/** A piece after the name: operator characters, or an operand (offset arithmetic, a default or pattern word). */
function operandProblem(
  node: SyntaxNode,
  child: SyntaxNode,
  state: ExpansionState,
  visitor: ExpansionVisitor,
): string | undefined {
  if (!child.isNamed) {
    state.operator = (state.operator ?? "") + child.text;
    return undefined;
  }
  const operator = state.operator;
  if (operator?.startsWith("@")) return `'${node.text}': \${x@...} transformations are refused (@P runs prompt code)`;
  if (operator === ":" || operator === undefined) {
    visitor.arithmetic(child); // ${x:offset:length}
    return undefined;
  }
  if (!PLAIN_OPERATORS.has(operator) && operator !== "=" && operator !== ":=")
    return `'${node.text}' uses '${operator}', which the checker does not know`;
  if (hidesExpansion(child.text) && ["word", "regex", "raw_string"].includes(child.type))
    return `'${node.text}' holds an expansion the grammar does not show; write it outside \${...}`;
  if (child.type !== "regex") visitor.word(child);
  return undefined;
}

/** Callbacks of {@link checkArithmetic}. */
export interface ArithmeticVisitor {
  /** A variable read by the expression (checked later: its value must be a number the line set). */
  read(name: string, piece: string): void;
  /** A variable the expression assigns (`i++`, `x = 1`): always a number. */
  assign(name: string, piece: string): void;
  /** `$(...)` inside the expression. */
  commands(node: SyntaxNode): void;
  /** A piece bash evaluates as code that the checker cannot read (quoted text: `'a[$(cmd)]'`). */
  opaque(piece: string, message: string): void;
}

/** Nodes of an arithmetic expression whose children are themselves arithmetic. */
const ARITHMETIC_STRUCTURE = new Set([
  "binary_expression",
  "unary_expression",
  "ternary_expression",
  "parenthesized_expression",
  "postfix_expression",
  "subscript",
  "arithmetic_expansion",
]);

/** Quoted text in arithmetic: a plain number, or expansions alone (`"$n"`), is read; anything else is code. */
function quotedArithmetic(node: SyntaxNode, visitor: ArithmeticVisitor): void {
  if (/^(['"])\s*-?\d+\s*\1$/.test(node.text)) return;
  const parts = node.namedChildren;
  if (
    node.type === "string" &&
    parts.length > 0 &&
    parts.every((part) => part?.type === "simple_expansion" || part?.type === "expansion")
  ) {
    for (const part of parts) if (part) checkArithmetic(part, visitor);
    return;
  }
  visitor.opaque(
    node.text,
    `quoted text in arithmetic ('${node.text}') is evaluated as an expression, which can run commands ('a[$(cmd)]'); write a number or a variable`,
  );
}

const ASSIGNING = /^([-+*/%&|^]|<<|>>)?=$|^\+\+$|^--$/;

/** Quoted and concatenated text in arithmetic (see {@link quotedArithmetic}). */
const QUOTED = new Set(["string", "raw_string", "ansi_c_string", "translated_string", "concatenation"]);

/** A bare name or number in arithmetic: a read (checked later), an assignment (`i++`, `x = 1`), or a literal. */
function arithmeticWord(node: SyntaxNode, visitor: ArithmeticVisitor): void {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(node.text)) {
    const parent = node.parent;
    const assigning =
      parent !== null &&
      parent.namedChildren[0]?.id === node.id &&
      parent.children.some((child) => child !== null && !child.isNamed && ASSIGNING.test(child.text));
    if (assigning) visitor.assign(node.text, node.text);
    visitor.read(node.text, parent?.text ?? node.text);
  } else if (!/^-?(0[xX])?[0-9A-Fa-f#]+$/.test(node.text)) visitor.read(node.text, node.text);
}

/** Walks an arithmetic expression: every variable it reads or assigns, every command it runs. */
export function checkArithmetic(node: SyntaxNode, visitor: ArithmeticVisitor): void {
  switch (node.type) {
    case "number":
      return;
    case "variable_name":
    case "word":
      return arithmeticWord(node, visitor);
    case "simple_expansion":
    case "expansion": {
      const name = node.namedChildren.find(
        (child) => child?.type === "variable_name" || child?.type === "special_variable_name",
      );
      visitor.read(name?.text ?? node.text, node.text);
      if (node.type === "expansion" && node.namedChildren.length > 1) visitor.read(node.text, node.text);
      return;
    }
    case "command_substitution":
    case "process_substitution":
      visitor.commands(node);
      return;
    case "variable_assignment": {
      const name = node.childForFieldName("name");
      if (name) visitor.assign(name.text, node.text);
      const value = node.childForFieldName("value");
      if (value) checkArithmetic(value, visitor);
      return;
    }
    default:
      if (QUOTED.has(node.type)) return quotedArithmetic(node, visitor);
      if (!ARITHMETIC_STRUCTURE.has(node.type)) {
        visitor.opaque(node.text, `'${node.text}' (${node.type}) in arithmetic is not something the checker reads`);
        return;
      }
      for (const child of node.namedChildren) if (child) checkArithmetic(child, visitor);
  }
}
