// The statement nodes of tree-sitter-bash that hold other statements: the walker descends into them.

/** Statement nodes whose named children are statements (or clauses holding statements). */
export const CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "negated_command",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "do_group",
]);
