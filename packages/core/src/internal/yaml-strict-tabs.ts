import { CST, Lexer } from "yaml";

/** Lexer control tokens that stand for no source text. */
const ZERO_WIDTH = new Set([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);

/**
 * Offsets of tab characters strictyaml's scanner (ruamel) refuses: a tab anywhere but inside a quoted scalar, a
 * block scalar (`|`, `>`) or a comment. `a: x\t# note`, `key:\tvalue` and `a: tab\there` all fail there, while the
 * `yaml` package accepts them. At most `limit` offsets are returned.
 */
export function findStrictYamlTabs(yaml: string, limit = 20): number[] {
  if (!yaml.includes("\t")) return [];
  const offsets: number[] = [];
  let offset = 0;
  let scalarContentNext = false;
  let blockScalarPending = false;
  for (const token of new Lexer().lex(yaml)) {
    if (ZERO_WIDTH.has(token)) {
      if (token === CST.SCALAR) scalarContentNext = true;
      continue;
    }
    const type = CST.tokenType(token);
    let allowed =
      type === "comment" ||
      type === "single-quoted-scalar" ||
      type === "double-quoted-scalar" ||
      type === "block-scalar-header";
    if (type === "block-scalar-header") blockScalarPending = true;
    if (scalarContentNext) {
      // The text right after a scalar marker is the scalar itself: block scalar content may hold tabs, plain may not.
      if (blockScalarPending) allowed = true;
      blockScalarPending = false;
      scalarContentNext = false;
    }
    if (!allowed) {
      for (
        let index = token.indexOf("\t");
        index !== -1 && offsets.length < limit;
        index = token.indexOf("\t", index + 1)
      )
        offsets.push(offset + index);
    }
    offset += token.length;
  }
  return offsets;
}
