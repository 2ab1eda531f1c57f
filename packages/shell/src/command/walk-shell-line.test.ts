import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "./bash-parser.js";
import { walkShellLine } from "./walk-shell-line.js";

const known = { WORKSPACE: "/ws", OUT_DIR: "/ws/out" };
/** Each command as its words (values, or «why» for words known only at run time). */
const commandsOf = (line: string) =>
  walkShellLine(line, known).commands.map((command) =>
    command.words.map(
      (word) => word.value ?? `«${word.why}${word.globPrefix !== undefined ? `:${word.globPrefix}` : ""}»`,
    ),
  );
const problemsOf = (line: string) => walkShellLine(line, known).problems.map((problem) => problem.kind);

describe("walkShellLine", () => {
  beforeAll(() => loadBashParser());

  it.each([
    [
      "cat results.json | jq '.answer'",
      [
        ["cat", "results.json"],
        ["jq", ".answer"],
      ],
    ],
    ["git rev-parse --show-toplevel 2>/dev/null", [["git", "rev-parse", "--show-toplevel"]]],
    ["if [ -f r.txt ]; then pip install -r r.txt; fi", [["["], ["pip", "install", "-r", "r.txt"]]],
    ["pip install pylatexenc  # LaTeX", [["pip", "install", "pylatexenc"]]],
    [
      "echo $(date) `id` <(ls)",
      [["date"], ["id"], ["ls"], ["echo", "«the output of $(...)»", "«the output of $(...)»", "«a <(...) pipe»"]],
    ],
    ["f() { rm x; }; f", [["rm", "x"], ["f"]]],
    ["cat <<EOF\n$(id)\nEOF", [["cat"], ["id"]]],
    ["cat <<'EOF'\n$(id)\nEOF", [["cat"]]],
    ['cat "$WORKSPACE/a b"/*.txt ${OUT_DIR:-x}/r', [["cat", "«a glob:/ws/a b/»", "/ws/out/r"]]],
    [
      "echo {a,b} ~/x $HOME c''d \"e\"f g\\ h",
      [["echo", "«brace expansion»", "«'~' (the home folder)»", "«$HOME»", "cd", "ef", "g h"]],
    ],
    ["for i in 1 2; do echo $((i * 2)); done", [["echo", "«$((...))»"]]],
    ["x=1 y=2 env", [["env"]]],
  ])("finds every command of %j", (line, expected) => {
    expect(commandsOf(line)).toEqual(expected);
    expect(problemsOf(line)).toEqual([]);
  });

  it.each([
    ["echo 'unterminated", "syntax"],
    ["if true; then ls", "syntax"],
    ["select x in a; do :; done", "unsupported"],
    ["x='a[$(id)]'; echo $((x))", "opaque"],
    ["[[ $n -gt 1 ]]", "opaque"],
    ["echo ${!x}", "opaque"],
    ["echo ${x@P}", "opaque"],
    ["echo ${x%$(id)}", "opaque"],
    ["PATH=/tmp; ls", "opaque"],
    ["IFS=:", "opaque"],
    ["coproc cat", "opaque"],
    ["read 'a[1]'", undefined],
  ])("flags %j as %s", (line, kind) => {
    const problems = problemsOf(line);
    if (kind === undefined) expect(problems).toEqual([]);
    else expect(problems).toContain(kind);
  });
});
