// The value of one bash word as far as it is known before running: quotes removed, known variables expanded.
import type { SyntaxNode } from "./bash-parser.js";
import { hidesExpansion } from "./shell-expansions.js";
import type { ShellWord } from "./shell-line-types.js";

/** What evaluating a word needs from the walker: known variables, and a callback for the commands inside it. */
export interface WordContext {
  /** Variables whose value is known before running (the runtime sets them and the line may not change them). */
  known: Readonly<Record<string, string>>;
  /** Walks a node that can run commands (`$(...)`, `<(...)`) or holds arithmetic; returns nothing. */
  walkInner(node: SyntaxNode): void;
  /** Reports a word the grammar kept as plain text although bash would expand something in it (fails closed). */
  hidden(node: SyntaxNode): void;
  /** Checks a `${...}` expansion (operators, indirect references, arithmetic offsets): its value, or why unknown. */
  expansion(node: SyntaxNode): { value?: string; why?: string };
}

/** Characters kept from an unquoted word: a backslash quotes the next one. */
function unescapeUnquoted(text: string): { value: string; plain: string } {
  let value = "";
  let plain = ""; // the same text with quoted characters replaced, to look for globs and braces
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === "\\" && index + 1 < text.length) {
      value += text[index + 1];
      plain += "\u0001";
      index += 1;
      continue;
    }
    value += char;
    plain += char;
  }
  return { value, plain };
}

/** The contents of a double-quoted `string_content`: `\"`, `\\`, `\$` and `` \` `` lose their backslash. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(["\\$`]|\n)/g, (_, char: string) => (char === "\n" ? "" : char));
}

interface Piece {
  value?: string;
  why?: string;
  /** The piece's text with quoted characters masked (for glob and brace detection); "" for quoted pieces. */
  plain: string;
}

/** A quoted piece: no glob or brace character in it counts; masked to the length of its value. */
function quoted(piece: Omit<Piece, "plain"> & { plain?: string }): Piece {
  return { ...piece, plain: piece.value === undefined ? "\u0001" : "\u0001".repeat(piece.value.length) };
}

function variableValue(name: string, context: WordContext): Piece {
  const value = context.known[name];
  return value === undefined ? { why: `$${name}`, plain: "\u0001" } : { value, plain: "\u0001".repeat(value.length) };
}

function piecesOf(node: SyntaxNode, context: WordContext): Piece[] {
  switch (node.type) {
    case "word":
    case "number": {
      if (hidesExpansion(node.text)) {
        context.hidden(node);
        return [{ why: "an expansion the grammar does not show", plain: "\u0001" }];
      }
      const { value, plain } = unescapeUnquoted(node.text);
      return [{ value, plain }];
    }
    case "raw_string":
      return [{ value: node.text.slice(1, -1), plain: "\u0001".repeat(Math.max(node.text.length - 2, 0)) }];
    case "string":
      return stringPieces(node, context);
    case "concatenation":
      return node.namedChildren.flatMap((child) => (child ? piecesOf(child, context) : []));
    case "simple_expansion": {
      const name = node.namedChildren[0];
      if (name?.type === "variable_name") return [variableValue(name.text, context)];
      return [{ why: node.text, plain: "\u0001" }];
    }
    case "expansion": {
      const expanded = context.expansion(node);
      if (expanded.value !== undefined)
        return [{ value: expanded.value, plain: "\u0001".repeat(expanded.value.length) }];
      return [{ why: expanded.why ?? node.text, plain: "\u0001" }];
    }
    case "command_substitution":
    case "process_substitution":
      context.walkInner(node);
      return [
        { why: node.type === "command_substitution" ? "the output of $(...)" : "a <(...) pipe", plain: "\u0001" },
      ];
    case "arithmetic_expansion":
      context.walkInner(node);
      return [{ why: "$((...))", plain: "\u0001" }];
    case "ansi_c_string":
      return [{ why: "$'...' quoting", plain: "\u0001" }];
    case "translated_string":
      return [{ why: '$"..." quoting', plain: "\u0001" }];
    case "brace_expression":
      return [{ why: "brace expansion", plain: "\u0001" }];
    case "extglob_pattern":
      return [{ why: "a glob", plain: "*" }];
    default:
      return [{ why: `unsupported word '${node.text}' (${node.type})`, plain: "\u0001" }];
  }
}

/** A double-quoted string: its contents (a piece the grammar kept as text but bash expands is opaque) and expansions. */
function stringPieces(node: SyntaxNode, context: WordContext): Piece[] {
  const pieces: Piece[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "string_content" && hidesExpansion(child.text)) {
      context.hidden(child);
      pieces.push(quoted({ why: "an expansion the grammar does not show" }));
    } else if (child.type === "string_content") pieces.push(quoted({ value: unescapeDoubleQuoted(child.text) }));
    else pieces.push(...piecesOf(child, context).map(quoted));
  }
  return pieces.length > 0 ? pieces : [{ value: "", plain: "" }];
}

const GLOB = /[*?[]/;
const BRACES = /\{[^{}]*(,|\.\.)[^{}]*\}/;

/** Evaluates a word node (see {@link ShellWord}); commands inside it are handed to `context.walkInner`. */
export function wordValue(node: SyntaxNode, context: WordContext): ShellWord {
  const base = { text: node.text, start: node.startIndex, end: node.endIndex };
  const pieces = piecesOf(node, context);
  const plain = pieces.map((piece) => piece.plain).join("");
  const unknown = pieces.find((piece) => piece.value === undefined);
  if (BRACES.test(plain)) return { ...base, why: "brace expansion" };
  if (plain.startsWith("~")) return { ...base, why: "'~' (the home folder)" };
  if (unknown) {
    // the folder written out before the first unknown piece (`/proc/$$/x` is under /proc/) is checked like a path
    const known = pieces
      .slice(0, pieces.indexOf(unknown))
      .map((piece) => piece.value)
      .join("");
    const folder = known.slice(0, known.lastIndexOf("/") + 1);
    return { ...base, why: unknown.why ?? "an expansion", ...(folder ? { globPrefix: folder } : {}) };
  }
  const value = pieces.map((piece) => piece.value).join("");
  const globAt = plain.search(GLOB);
  if (globAt !== -1) {
    // masked characters keep their length, so the literal prefix is the value up to the first pattern character
    return { ...base, why: "a glob", globPrefix: value.slice(0, globAt), pattern: value };
  }
  return { ...base, value };
}
