// Lines refused whole before any command is judged: syntax errors, and backslash-newlines bash would still join.
import type { SyntaxNode } from "./bash-parser.js";
import type { ShellLine, ShellProblem } from "./shell-line-types.js";

/** The first piece of a tree with errors (an error node, or what is missing where). */
export function errorPiece(root: SyntaxNode): string | undefined {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.isError || node.isMissing)
      return node.isMissing ? `missing '${node.type}' near '${node.parent?.text ?? ""}'` : node.text;
    for (const child of node.children) if (child?.hasError || child?.isMissing) stack.push(child);
  }
  return undefined;
}

/** Nodes whose text bash reads literally: a backslash-newline in them stays. */
const LITERAL = new Set(["raw_string", "ansi_c_string", "comment"]);

/**
 * The first backslash-newline left in the joined line that bash would still join: outside single quotes, `$'...'`,
 * comments and quoted-delimiter here-documents, an odd run of backslashes before a newline (none should be left).
 */
export function keptContinuation(root: SyntaxNode, text: string): string | undefined {
  for (let at = text.indexOf("\\\n"); at !== -1; at = text.indexOf("\\\n", at + 2)) {
    let run = 1;
    while (text[at - run] === "\\") run += 1;
    let node: SyntaxNode | null = root.descendantForIndex(at, at + 1);
    let literal = false;
    for (; node && !literal; node = node.parent) {
      if (LITERAL.has(node.type)) literal = true;
      else if (node.type === "heredoc_body") {
        const start = node.parent?.namedChildren.find((child) => child?.type === "heredoc_start")?.text ?? "";
        literal = /['"\\]/.test(start);
      }
    }
    if (!literal && run % 2 === 1) return text.slice(Math.max(0, at - 20), at + 20);
  }
  return undefined;
}

/** A line refused whole: no command, one problem. */
export function refusedLine(piece: string, message: string, kind: ShellProblem["kind"] = "syntax"): ShellLine {
  return {
    text: "", // never run: a syntax problem refuses the line
    commands: [],
    redirects: [],
    functions: new Set(),
    problems: [{ kind, piece, message }],
    assigned: new Set(),
    simple: false,
  };
}
