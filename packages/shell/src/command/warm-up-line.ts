// A line the runtime owns, checked once per thread without a time box before the first line from outside: the first
// parse, walk and check of a process also compile the code that does them (tree-sitter's and ours), a cost that is
// the process's, not the line's, and on a slow machine alone passes the time box.

/** Touches each part of the checker: parse, walk, expansions, a here-document, redirections, paths, program lookup. */
export const WARM_UP_LINE = [
  `cd . && { x=$(printf '%s' "\${HOME:-/}" | head -n 1 2>/dev/null); } ; export y=1`,
  `cat <<EOF > /dev/null`,
  `$x $((1 + 2)) \`$y\``,
  `EOF`,
  `[[ -n "$x" ]] || (echo "\${x#/}" a*.txt >> out.txt; test -f ./out.txt) && scripts/x.sh ../x; true`,
].join("\n");
