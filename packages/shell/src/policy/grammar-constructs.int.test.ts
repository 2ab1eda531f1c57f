import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import { walkShellLine } from "../command/walk-shell-line.js";
import { checkShellLine } from "./check-shell-line.js";
import type { CommandPolicy } from "./command-policy.js";
import { parseCommandRule } from "./command-rules.js";

// Every construct of the bash grammar (the named node types of tree-sitter-bash's node-types.json) wraps `git push`,
// and every line is also tried with a backslash-newline at each position. Each line must be judged exactly (the deny
// rule for `git push` applies: refused), be opaque (asks first), or be refused for another reason. A line the checker
// passes without asking is run by bash with a fake `git` that records any push: none may happen.

const P = "git push";

/** Lines holding each node type, with `git push` inside (or, for comments, beside) it. */
const TEMPLATES: Record<string, string[]> = {
  arithmetic_expansion: [`echo $(( $(${P}) ))`, `echo $[ $(${P}) ]`],
  array: [`a=( $(${P}) )`, `a=([$(${P})]=1)`],
  binary_expression: [`[[ $(${P}) == x ]]`, `(( $(${P}) + 1 ))`, `[[ 'a[$(${P})]' -eq 1 ]]`],
  brace_expression: [`echo {1..2} $(${P})`, `{git,} push`],
  c_style_for_statement: [`for ((i=0;i<1;i++)); do ${P}; done`, `for ((i=$(${P});i<1;i++)); do :; done`],
  case_item: [`case x in x) ${P};; esac`],
  case_statement: [`case $(${P}) in *) ;; esac`],
  command: [P, `command ${P}`, `env ${P}`],
  command_name: [P, `"git" push`],
  command_substitution: [`echo $(${P})`, `echo \`${P}\``, `echo \`echo \\\`${P}\\\`\``],
  compound_statement: [`{ ${P}; }`],
  concatenation: [`echo a$(${P})b`],
  declaration_command: [`export x=$(${P})`, `f() { local x=$(${P}); }; f`, `declare -i n; n='a[$(${P})]'`],
  do_group: [`while true; do ${P}; break; done`],
  elif_clause: [`if false; then :; elif ${P}; then :; fi`],
  else_clause: [`if false; then :; else ${P}; fi`],
  expansion: [`echo \${x:-$(${P})}`, `echo "\${x:-'$(${P})'}"`, `x='$(${P})'; echo \${x@P}`],
  file_redirect: [`echo x > $(${P})`, `${P} 2>/dev/null`],
  for_statement: [`for i in $(${P}); do :; done`, `for i in 1; do ${P}; done`],
  function_definition: [`f() { ${P}; }; f`, `function f { ${P}; }; f`],
  heredoc_body: [`cat <<EOF\n$(${P})\nEOF`, `cat <<-EOF\n\t$(${P})\nEOF`, `cat <<EOF\n\`${P}\`\nEOF`],
  heredoc_redirect: [`bash <<EOF\n${P}\nEOF`, `cat <<EOF | ${P}\nx\nEOF`],
  herestring_redirect: [`bash <<< '${P}'`, `cat <<< "$(${P})"`, `sh /dev/stdin <<< '${P}'`],
  if_statement: [`if ${P}; then :; fi`],
  list: [`true && ${P}`, `false || ${P}`, `true; ${P}`],
  negated_command: [`! ${P}`],
  number: [`${P} 1`],
  parenthesized_expression: [`(( ($(${P})) ))`],
  pipeline: [`echo | ${P}`, `echo ${P} | bash`],
  postfix_expression: [`(( x++ )); ${P}`, `(( $(${P})++ ))`],
  process_substitution: [`cat <(${P})`, `bash <(echo ${P})`, `echo x > >(${P})`],
  program: [P, `true\n${P}`],
  redirected_statement: [`${P} > /dev/null`],
  simple_expansion: [`x=git; $x push`, `echo $x $(${P})`],
  string: [`echo "$(${P})"`, `"$(echo git)" push`],
  subscript: [`a[$(${P})]=1`, `echo \${a[$(${P})]}`, `echo \${a['a[$(${P})]']}`],
  subshell: [`(${P})`],
  ternary_expression: [`(( 1 ? $(${P}) : 0 ))`],
  test_command: [`[ -n "$(${P})" ]`, `test -v x -a -v 'a[$(${P})]'`, `[ -v 'a[$(${P})]' ]`],
  translated_string: [`$"git" push`],
  unary_expression: [`(( -$(${P}) ))`, `[ ! "$(${P})" ]`],
  unset_command: [`unset x; ${P}`],
  variable_assignment: [`x=$(${P})`, `printf -v'a[$(${P})]' x`],
  variable_assignments: [`a=1 b=$(${P})`],
  while_statement: [`while ${P}; do break; done`, `until ${P}; do :; done`],
  word: [P, `g\\it push`],
  ansi_c_string: [`$'git' push`, `$'\\x67it' push`],
  comment: [`true # ${P}`, `${P} # x`],
  extglob_pattern: [`case x in @(x)) ${P};; esac`],
  file_descriptor: [`${P} 2>&1`],
  heredoc_content: [`cat <<EOF\nx $(${P})\nEOF`],
  heredoc_end: [`cat <<'EOF'\n$(${P})\nEOF\n${P}`],
  heredoc_start: [`cat <<"E"\nx\nE\n${P}`],
  raw_string: [`'git' push`, `sh -c '${P}'`],
  regex: [`[[ x =~ $(${P}) ]]`],
  special_variable_name: [`echo $? $(${P})`],
  string_content: [`echo "a $(${P}) b"`],
  test_operator: [`[ -z "$(${P})" ]`],
  variable_name: [`x=1; ${P}`],
};

const root = mkdtempSync(path.join(os.tmpdir(), "grammar-constructs-"));
const bin = path.join(root, "bin");
const workspaceDir = path.join(root, "ws");
const pushed = path.join(root, "pushed");
mkdirSync(bin);
mkdirSync(workspaceDir);
mkdirSync(pushed);
writeFileSync(path.join(bin, "git"), `#!/bin/sh\ncase " $* " in *" push "*) touch '${pushed}/push-'$$;; esac\n`);
chmodSync(path.join(bin, "git"), 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const policy: CommandPolicy = {
  deny: [parseCommandRule(P, "deny", { prefix: true })!],
  fixedPath: `${bin}:/usr/bin:/bin`,
  confinePaths: true,
  readablePaths: ["/dev/null"],
  syntax: "full",
  opaqueNeedsApproval: true,
  envAllow: new Set(),
};

/** How the checker judged a line: refused, asks (opaque), or passed without asking (then bash runs it). */
function judge(line: string): "refused" | "asks" | "passed" {
  const walked = walkShellLine(line, {});
  const input = { command: line, mode: "shell" as const, loadedSkills: [], workspaceDir };
  const checked = checkShellLine(input, policy, walked, { cwd: workspaceDir, fileSystem: false });
  if (!checked.ok) return "refused";
  return checked.opaque.length > 0 ? "asks" : "passed";
}

/** The line with a backslash-newline at `at`. */
const continued = (line: string, at: number) => `${line.slice(0, at)}\\\n${line.slice(at)}`;

describe("every construct of the bash grammar wrapping git push (deny git push)", () => {
  beforeAll(() => loadBashParser());

  it("has lines for every named node type of tree-sitter-bash", () => {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve("tree-sitter-bash/package.json")), "src", "node-types.json");
    const types = (
      JSON.parse(readFileSync(file, "utf8")) as Array<{ type: string; named: boolean; subtypes?: unknown }>
    )
      .filter((node) => node.named && node.subtypes === undefined)
      .map((node) => node.type);
    expect(types.length).toBeGreaterThan(50);
    expect(types.filter((type) => !Object.hasOwn(TEMPLATES, type))).toEqual([]);
  });

  it("judges each line exactly or asks first; lines it passes never push when bash runs them", () => {
    const lines = Object.values(TEMPLATES)
      .flat()
      .flatMap((line) => [line, ...Array.from({ length: line.length + 1 }, (_, at) => continued(line, at))]);
    const passed: string[] = [];
    for (const line of lines) if (judge(line) === "passed") passed.push(line);
    // the comment lines pass: git push is not run there
    expect(passed).toContain(`true # ${P}`);
    for (const line of passed) {
      const result = spawnSync("bash", ["-c", walkShellLine(line, {}).text], {
        cwd: workspaceDir,
        env: { PATH: policy.fixedPath },
        timeout: 10_000,
      });
      expect(result.error, line).toBeUndefined();
      expect(readdirSync(pushed), `bash pushed for a line the checker passed: ${JSON.stringify(line)}`).toEqual([]);
    }
  });

  it("asks about the constructs bash reads differently from the grammar (never passes them)", () => {
    for (const line of [
      `echo "$\\\n(${P})"`,
      `cat <<EOF\n$\\\n(${P})\nEOF`,
      `cat <<< "$\\\n(${P})"`,
      `x\\\n#$(${P})`,
      `echo $\\\n{x@P}`,
      `echo $\\\n{!x}`,
    ])
      expect(judge(line), JSON.stringify(line)).not.toBe("passed");
  });
});
