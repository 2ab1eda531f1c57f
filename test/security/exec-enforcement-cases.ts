// Lines that hide a program in bash constructs (keyed by tree-sitter-bash node types) and in programs that start
// other programs (git drivers, make, interpreters, xargs, find) or run a copy of its bytes (copy, ld.so, memfd).
// `P` is the program to hide; every wrapper returns a line that starts it if nothing stops it.
import fc from "fast-check";

/** A construct: the node type it is built on (checked against tree-sitter-bash's node-types.json), and the line. */
export interface HidingConstruct {
  /** A tree-sitter-bash node type the line contains (for syntax constructs), or a label (program-level ones). */
  nodeType: string;
  wrap: (inner: string) => string;
  /** Only around a simple command (a program and its words), so only innermost when constructs are nested. */
  simpleOnly?: boolean;
  /** Tested alone only (an alias is expanded only in lines read after it was defined, so not inside a nested body). */
  alone?: boolean;
  /** Runs the inner command inside an arithmetic context, where bash mis-parses a here-document's lines. */
  arithmetic?: boolean;
}

/** Bash syntax that runs its inner command: each keyed by a node type of the grammar. */
export const SYNTAX_CONSTRUCTS: readonly HidingConstruct[] = [
  { nodeType: "command_substitution", wrap: (c) => `echo "$( ${c})"` },
  // `; true`: the last command of the substitution would take its exec'd place and close the pipe first, so `cat` could
  // end (and the sandbox with it) while that command still runs
  { nodeType: "process_substitution", wrap: (c) => `cat <( ${c}; true )` },
  // alone: a here-document's lines do not survive every enclosing construct (a make recipe, $(( )), <( ))
  { nodeType: "heredoc_redirect", wrap: (c) => `bash <<'EOF'\n${c}\nEOF`, alone: true },
  { nodeType: "herestring_redirect", wrap: (c) => `bash <<< ${quote(c)}` },
  { nodeType: "function_definition", wrap: (c) => `f() { ${c}; }; f` },
  { nodeType: "subshell", wrap: (c) => `( ${c} )` },
  { nodeType: "compound_statement", wrap: (c) => `{ ${c}; }` },
  { nodeType: "pipeline", wrap: (c) => `echo x | { ${c}; }` },
  { nodeType: "list", wrap: (c) => `true && ${c}` },
  { nodeType: "negated_command", wrap: (c) => `! { ${c}; }` },
  { nodeType: "if_statement", wrap: (c) => `if true; then ${c}; fi` },
  { nodeType: "while_statement", wrap: (c) => `while true; do ${c}; break; done` },
  { nodeType: "for_statement", wrap: (c) => `for i in 1; do ${c}; done` },
  { nodeType: "c_style_for_statement", wrap: (c) => `for ((i = 0; i < 1; i++)); do ${c}; done` },
  { nodeType: "case_statement", wrap: (c) => `case x in x) ${c};; esac` },
  { nodeType: "arithmetic_expansion", wrap: (c) => `echo $(( $( ${c}; echo 1) + 1 ))`, arithmetic: true },
  { nodeType: "subscript", wrap: (c) => `a=(); a[$( ${c}; echo 0)]=1`, arithmetic: true },
  { nodeType: "variable_assignment", wrap: (c) => `x=$( ${c})` },
  { nodeType: "declaration_command", wrap: (c) => `declare x="$( ${c})"` },
  { nodeType: "unset_command", wrap: (c) => `unset "$( ${c})"` },
  { nodeType: "expansion", wrap: (c) => `echo \${x:-$( ${c})}` },
  { nodeType: "test_command", wrap: (c) => `[[ -n "$( ${c})" ]]` },
  { nodeType: "array", wrap: (c) => `a=( "$( ${c})" )` },
  { nodeType: "concatenation", wrap: (c) => `echo pre"$( ${c})"post` },
  { nodeType: "redirected_statement", wrap: (c) => `${c} > /dev/null 2>&1` },
  // bash's $"..." (translated_string in the grammar); tree-sitter-bash 0.25 parses it as a plain string
  { nodeType: "string", wrap: (c) => `echo $"$( ${c})"` },
  { nodeType: "ansi_c_string", wrap: (c) => `eval $'${c.replace(/[\\']/g, "\\$&")}'` },
  { nodeType: "raw_string", wrap: (c) => `eval ${quote(c)}` },
  { nodeType: "simple_expansion", wrap: (c) => `c=${quote(c)}; $c`, simpleOnly: true },
  { nodeType: "ternary_expression", wrap: (c) => `echo $(( 1 ? $( ${c}; echo 2) : 3 ))`, arithmetic: true },
];

/** Programs and tricks that start the inner command without bash naming it as a command. */
export const PROGRAM_CONSTRUCTS: readonly HidingConstruct[] = [
  { nodeType: "eval", wrap: (c) => `eval ${quote(c)}` },
  { nodeType: "alias", wrap: (c) => `shopt -s expand_aliases\nalias ok=${quote(c)}\nok`, alone: true },
  { nodeType: "source", wrap: (c) => `echo ${quote(c)} > s.sh; . ./s.sh` },
  { nodeType: "sh -c", wrap: (c) => `sh -c ${quote(c)}`, simpleOnly: true },
  { nodeType: "bash -c", wrap: (c) => `bash -c ${quote(c)}` },
  { nodeType: "env", wrap: (c) => `env -i PATH="$PATH" ${c}`, simpleOnly: true },
  { nodeType: "command builtin", wrap: (c) => `command ${c}`, simpleOnly: true },
  { nodeType: "exec -a", wrap: (c) => `(exec -a innocent ${c})`, simpleOnly: true },
  { nodeType: "xargs", wrap: (c) => `printf %s ${quote(c)} | xargs -0 bash -c` },
  { nodeType: "find -exec", wrap: (c) => `find . -maxdepth 0 -exec bash -c ${quote(c)} \\;` },
  { nodeType: "timeout", wrap: (c) => `timeout 20 bash -c ${quote(c)}` },
  {
    nodeType: "awk system()",
    wrap: (c) => `awk ${quote(`BEGIN { system("${c.replace(/["\\]/g, "\\$&")}") }`)}`,
    simpleOnly: true,
  },
  {
    nodeType: "python3 subprocess",
    wrap: (c) => `python3 -c ${quote(`import subprocess; subprocess.run(["bash", "-c", ${JSON.stringify(c)}])`)}`,
  },
  {
    nodeType: "python3 os.execvp",
    wrap: (c) => `python3 -c ${quote(`import os; os.execvp("bash", ["bash", "-c", ${JSON.stringify(c)}])`)}`,
  },
  { nodeType: "perl system", wrap: (c) => `perl -e ${quote(`system("bash", "-c", q{${c}})`)}` },
  // make expands `$` itself: `$$` is a `$` for the recipe's shell
  {
    nodeType: "make",
    wrap: (c) => `printf 'SHELL := /bin/bash\\nall:\\n\\t%s\\n' ${quote(c.replace(/\$/g, "$$$$"))} > Makefile; make -s`,
  },
  {
    nodeType: "git filter driver",
    wrap: (c) =>
      `git init -q r && cd r && git config filter.x.clean ${quote(`bash -c ${quote(c)}; cat`)} && echo '* filter=x' > .gitattributes && echo a > f && git add f`,
  },
  {
    nodeType: "git diff textconv",
    wrap: (c) =>
      `git init -q r && cd r && git config diff.x.textconv ${quote(`bash -c ${quote(`${c}; cat "$0"`)}`)} && echo '* diff=x' > .gitattributes && echo a > f && git add f && echo b > f && git diff --no-ext-diff > /dev/null`,
  },
  { nodeType: "PATH lookup by variable", wrap: (c) => `p=${c.split(" ")[0] ?? c}; "$p"`, simpleOnly: true },
  { nodeType: "quoted name", wrap: (c) => `'${c.slice(0, 3)}'${c.slice(3)}`, simpleOnly: true },
];

/**
 * Lines that nest `inner` in 2 or 3 constructs (the innermost may be any that is not `alone`, the outer ones any that
 * wrap more than a simple command), leaving out what bash itself cannot parse: a here-document inside `$(( ))`.
 */
export function nestedLines(constructs: readonly HidingConstruct[], inner: string): fc.Arbitrary<string> {
  const all = constructs.filter((construct) => !construct.alone);
  const outer = all.filter((construct) => !construct.simpleOnly);
  return fc
    .tuple(fc.constantFrom(...all), fc.array(fc.constantFrom(...outer), { minLength: 1, maxLength: 2 }))
    .filter(
      ([first, rest]) =>
        !rest.some(
          (layer, index) =>
            layer.arithmetic &&
            [first, ...rest].slice(0, index + 1).some((construct) => construct.nodeType === "heredoc_redirect"),
        ),
    )
    .map(([first, rest]) => [first, ...rest].reduce((line, layer) => layer.wrap(line), inner));
}

/** Single-quotes a string for bash. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
