// The walker behind walkShellLine: one pass over a bash syntax tree that records every simple command, redirection,
// function and assignment, and every piece it cannot judge as a problem (opaque or unsupported).
import type { SyntaxNode } from "./bash-parser.js";
import { CONTAINERS } from "./container-nodes.js";
import {
  checkArithmetic,
  expansionProblem,
  hidesExpansion,
  isSpecialVariable,
  NUMERIC_SPECIALS,
} from "./shell-expansions.js";
import type {
  ShellAssignment,
  ShellProblem,
  ShellRedirect,
  SimpleShellCommand,
  ShellWord,
} from "./shell-line-types.js";
import type { PlanBudget } from "./plan-budget.js";
import { walkTestCommand } from "./test-operands.js";
import { wordValue, type WordContext } from "./shell-word-value.js";

/** Walks one line's tree: call {@link LineWalker.statement} on the root, then {@link LineWalker.finish}. */
export class LineWalker {
  readonly commands: SimpleShellCommand[] = [];
  readonly redirects: ShellRedirect[] = [];
  readonly functions = new Set<string>();
  readonly problems: ShellProblem[] = [];
  /** Variables the line assigns, and whether every value given is a number (for arithmetic). */
  readonly assigned = new Map<string, boolean>();
  /** Variables read inside arithmetic, checked once the whole line is walked. */
  readonly arithmeticReads: Array<{ name: string; piece: string }> = [];
  private readonly context: WordContext;
  private depth = 0;

  constructor(
    private readonly known: Readonly<Record<string, string>>,
    readonly budget: PlanBudget,
  ) {
    this.context = {
      known,
      walkInner: (node) => this.inner(node),
      hidden: (node) =>
        this.problem("opaque", node, "bash would expand something here that the grammar shows as plain text"),
      expansion: (node) => this.expansion(node),
    };
  }

  problem(kind: ShellProblem["kind"], node: SyntaxNode | string, message: string): void {
    this.problems.push({ kind, piece: typeof node === "string" ? node : node.text, message });
  }

  assign(name: string, numeric: boolean, piece: string): void {
    if (isSpecialVariable(name) || Object.hasOwn(this.known, name)) {
      this.problem(
        "opaque",
        piece,
        `'${name}' is a variable bash or the runtime gives a meaning (PATH, IFS, BASH_ENV, HOME, WORKSPACE, ...); the line may not set it`,
      );
    }
    this.assigned.set(name, (this.assigned.get(name) ?? true) && numeric);
  }

  word(node: SyntaxNode): ShellWord {
    if (this.budget.spent()) return { text: "", start: node.startIndex, end: node.startIndex, why: "unchecked" };
    return wordValue(node, this.context);
  }

  /** `$(...)`, `<(...)`, `$((...))` inside a word. */
  inner(node: SyntaxNode): void {
    // inside backticks bash drops the backslash before `$`, a backtick or `\` before reading the command
    if (node.text.startsWith("`") && /\\[$`\\]/.test(node.text))
      this.problem("opaque", node, "backslashes inside backticks change what bash reads there; use $(...)");
    if (node.type === "arithmetic_expansion") {
      for (const child of node.namedChildren) if (child) this.arithmetic(child);
      return;
    }
    for (const child of node.namedChildren) if (child) this.statement(child);
  }

  arithmetic(node: SyntaxNode): void {
    checkArithmetic(node, {
      read: (name, piece) => this.arithmeticReads.push({ name, piece }),
      assign: (name, piece) => this.assign(name, true, piece),
      commands: (inner) => this.inner(inner),
      opaque: (piece, message) => this.problem("opaque", piece, message),
    });
  }

  expansion(node: SyntaxNode): { value?: string; why?: string } {
    const checked = expansionProblem(node, {
      word: (child) => this.word(child),
      arithmetic: (child) => this.arithmetic(child),
      assign: (name, numeric) => this.assign(name, numeric, node.text),
    });
    if (checked.problem) {
      this.problem("opaque", node, checked.problem);
      return { why: node.text };
    }
    const known = checked.name === undefined ? undefined : this.known[checked.name];
    // the runtime's variables are never empty, so `${WORKSPACE:-x}` is $WORKSPACE
    if (known !== undefined && ["", ":-", "-", ":=", "=", ":?", "?"].includes(checked.operator ?? ""))
      return { value: known };
    return { why: node.text };
  }

  statement(node: SyntaxNode): void {
    this.depth += 1;
    try {
      if (this.depth > 200) this.problem("unsupported", node, "the line nests too deeply");
      else if (!this.budget.spent()) this.dispatch(node);
    } finally {
      this.depth -= 1;
    }
  }

  private dispatch(node: SyntaxNode): void {
    if (CONTAINERS.has(node.type)) {
      if (node.type === "compound_statement" && node.firstChild?.type === "((") {
        for (const child of node.namedChildren) if (child) this.arithmetic(child);
        return;
      }
      for (const child of node.namedChildren) if (child) this.statement(child);
      return;
    }
    switch (node.type) {
      case "comment":
        return;
      case "command":
        return this.command(node);
      case "variable_assignment":
        return this.standaloneAssignments([node]);
      case "variable_assignments":
        return this.standaloneAssignments(node.namedChildren.filter((child) => child !== null));
      case "declaration_command":
      case "unset_command":
        return this.declaration(node);
      case "redirected_statement":
        return this.redirected(node);
      case "for_statement":
        return this.forLoop(node);
      case "c_style_for_statement":
        return this.cStyleFor(node);
      case "case_statement":
        return this.caseStatement(node);
      case "function_definition":
        return this.functionDefinition(node);
      case "test_command":
        return this.testCommand(node);
      case "file_redirect":
      case "heredoc_redirect":
      case "herestring_redirect":
        return this.redirect(node);
      default:
        this.problem("unsupported", node, `'${node.text}' (${node.type}) is shell syntax the checker does not know`);
    }
  }

  command(node: SyntaxNode): void {
    const words: ShellWord[] = [];
    const assignments: ShellAssignment[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (this.budget.spent()) break; // every child below costs a call into the grammar: stop at the time box
      if (child.type === "variable_assignment") assignments.push(this.assignment(child, false));
      else if (child.type === "command_name") {
        const inner = child.namedChildren[0];
        if (inner) words.push(this.word(inner));
      } else if (child.type.endsWith("_redirect")) this.redirect(child);
      else if (child.type === "subshell" || child.type === "comment") this.statement(child);
      else words.push(this.word(child));
    }
    const name = words[0]?.value;
    if (name === "coproc") this.problem("opaque", node, "'coproc' starts a co-process the checker cannot follow");
    if (name !== undefined && ["read", "getopts", "mapfile", "readarray", "printf"].includes(name)) {
      // the names these builtins assign: never numbers for arithmetic's sake
      for (const word of words.slice(1))
        if (word.value && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.value)) this.assign(word.value, false, node.text);
    }
    this.commands.push({ words, assignments, text: node.text });
  }

  assignment(node: SyntaxNode, standalone: boolean): ShellAssignment {
    const target = node.childForFieldName("name") ?? node.namedChildren[0];
    const value = node.childForFieldName("value");
    let name = target?.text ?? "";
    if (target?.type === "subscript") {
      name = target.childForFieldName("name")?.text ?? "";
      const index = target.childForFieldName("index");
      if (index) this.arithmetic(index);
    }
    const word = value && value.type !== "array" ? this.word(value) : undefined;
    if (value?.type === "array") for (const element of value.namedChildren) if (element) this.arrayElement(element);
    if (standalone || !isSpecialVariable(name))
      this.assign(name, value?.type === "number" || value?.type === "arithmetic_expansion", node.text);
    return { name, ...(word ? { value: word } : {}), text: node.text };
  }

  /** `a=(x [k]=v)`: a `[k]=` key is arithmetic (indexed arrays); only a number or a plain name is read. */
  arrayElement(element: SyntaxNode): void {
    const key = /^\[(.*)\]\+?=/s.exec(element.text)?.[1];
    if (key !== undefined && !/^\s*\d+\s*$/.test(key)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) this.arithmeticReads.push({ name: key, piece: element.text });
      else this.problem("opaque", element, `array key '[${key}]' is evaluated as arithmetic; write a number`);
    }
    this.word(element);
  }

  standaloneAssignments(nodes: SyntaxNode[]): void {
    const assignments = nodes.map((node) => this.assignment(node, true));
    this.commands.push({ words: [], assignments, text: nodes.map((node) => node.text).join(" ") });
  }

  /** `export A=1 B`, `local x`, `declare -i z`, `unset y`: a command whose arguments may be assignments. */
  declaration(node: SyntaxNode): void {
    const keyword = node.firstChild?.text ?? node.type;
    const words: ShellWord[] = [
      { value: keyword, text: keyword, start: node.startIndex, end: node.startIndex + keyword.length },
    ];
    const assignments: ShellAssignment[] = [];
    for (const child of node.namedChildren) {
      if (!child || this.budget.spent()) continue;
      if (child.type === "variable_assignment") {
        const assignment = this.assignment(child, true);
        assignments.push(assignment);
        words.push({ value: child.text, text: child.text, start: child.startIndex, end: child.endIndex });
      } else if (child.type === "variable_name") {
        if (keyword !== "unset") this.assign(child.text, false, node.text);
        words.push({ value: child.text, text: child.text, start: child.startIndex, end: child.endIndex });
      } else words.push(this.word(child));
    }
    this.commands.push({ words, assignments: keyword === "export" ? [] : assignments, text: node.text });
  }

  redirected(node: SyntaxNode): void {
    for (const child of node.namedChildren) {
      if (!child || this.budget.spent()) continue;
      if (child.type.endsWith("_redirect")) this.redirect(child);
      else this.statement(child);
    }
  }

  redirect(node: SyntaxNode): void {
    if (this.budget.spent()) return;
    const operator = node.children.find((child) => child && !child.isNamed)?.text ?? "";
    if (node.type === "heredoc_redirect") {
      const start = node.namedChildren.find((child) => child?.type === "heredoc_start")?.text ?? "";
      const quotedDelimiter = /['"\\]/.test(start);
      for (const child of node.namedChildren) {
        if (child?.type !== "heredoc_body" || quotedDelimiter) continue;
        this.heredocBody(child);
      }
      for (const child of node.namedChildren) {
        // a command after the here-document's start on the same line: `cat <<EOF | grep x`
        if (child && !["heredoc_start", "heredoc_body", "heredoc_end", "file_descriptor"].includes(child.type))
          this.statement(child);
      }
      this.redirects.push({ operator: "<<", text: node.text });
      return;
    }
    if (node.type === "herestring_redirect") {
      for (const child of node.namedChildren) if (child) this.word(child);
      this.redirects.push({ operator: "<<<", text: node.text });
      return;
    }
    const destinations = node.namedChildren.filter(
      (child): child is SyntaxNode => child !== null && child.type !== "file_descriptor",
    );
    for (const [index, destination] of destinations.entries()) {
      const target = this.word(destination);
      const duplicate = operator.endsWith("&") && index === 0 && /^(\d+|-)$/.test(target.value ?? "");
      this.redirects.push({ operator, ...(duplicate ? {} : { target }), text: node.text });
    }
  }

  /**
   * An unquoted here-document body: the expansions the grammar shows are walked; any other `$` or backtick in the
   * text (the grammar misses them after `<<-` tabs and in backticks) makes the body opaque.
   */
  heredocBody(body: SyntaxNode): void {
    let rest = "";
    let at = body.startIndex;
    for (const part of body.namedChildren) {
      if (!part || part.type === "heredoc_content") continue;
      rest += body.text.slice(at - body.startIndex, part.startIndex - body.startIndex) + " ";
      at = part.endIndex;
      this.word(part);
    }
    rest += body.text.slice(at - body.startIndex);
    if (hidesExpansion(rest))
      this.problem(
        "opaque",
        body,
        "a here-document body with an expansion the grammar does not show; quote the delimiter (<<'EOF') or use $(...) unindented",
      );
  }

  forLoop(node: SyntaxNode): void {
    const variable = node.childForFieldName("variable");
    const values = node.childrenForFieldName("value").filter((child): child is SyntaxNode => child !== null);
    const words = values.map((value) => this.word(value));
    if (node.firstChild?.type === "select")
      this.problem("unsupported", node, "'select' reads a choice from the terminal; use a for loop");
    if (variable)
      this.assign(
        variable.text,
        words.every((word) => /^-?\d+$/.test(word.value ?? "")),
        node.text,
      );
    const body = node.childForFieldName("body");
    if (body) this.statement(body);
  }

  cStyleFor(node: SyntaxNode): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "do_group" || child.type === "compound_statement") this.statement(child);
      else this.arithmetic(child);
    }
  }

  caseStatement(node: SyntaxNode): void {
    const value = node.childForFieldName("value");
    if (value) this.word(value);
    for (const item of node.namedChildren) {
      if (!item || item.type !== "case_item") continue;
      const patterns = new Set(item.childrenForFieldName("value").map((child) => child?.id));
      for (const child of item.namedChildren) {
        if (!child) continue;
        if (patterns.has(child.id)) this.word(child);
        else this.statement(child);
      }
    }
  }

  functionDefinition(node: SyntaxNode): void {
    const name = node.childForFieldName("name")?.text ?? "";
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      this.problem("unsupported", node, `function name '${name}' is not a plain name`);
    this.functions.add(name);
    for (const child of node.namedChildren) {
      if (!child || child.type === "word") continue;
      if (child.type.endsWith("_redirect")) this.redirect(child);
      else this.statement(child);
    }
  }

  /** `[ ... ]` and `[[ ... ]]` (see test-operands.ts). */
  testCommand(node: SyntaxNode): void {
    walkTestCommand(node, {
      arithmetic: (child) => this.arithmetic(child),
      word: (child) => this.word(child),
      opaque: (piece, message) => this.problem("opaque", piece, message),
    });
    const double = node.firstChild?.type === "[[";
    this.commands.push({
      words: [{ value: double ? "[[" : "[", text: node.text, start: node.startIndex, end: node.endIndex }],
      assignments: [],
      text: node.text,
    });
  }

  /** Variables read by arithmetic must hold numbers the line itself gave them: bash evaluates a value as code. */
  finish(): void {
    for (const { name, piece } of this.arithmeticReads) {
      if (NUMERIC_SPECIALS.has(name) || this.assigned.get(name) === true) continue;
      this.problem(
        "opaque",
        piece,
        `arithmetic reads '${name}', whose value is not a number the line sets: bash evaluates such a value as an expression, which can run commands ('a[$(cmd)]')`,
      );
    }
  }
}
