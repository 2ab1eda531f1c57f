import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { joinContinuations } from "./join-continuations.js";

const NL = "\\\n"; // a backslash-newline as typed

/** Each case: the line, and the joined line bash reads; each is checked against bash too. */
const cases: Array<[string, string, string]> = [
  ["unquoted, between words", `git status ${NL}  --short`, "git status   --short"],
  ["unquoted, inside a word", `ca${NL}nary`, "canary"],
  ["double quotes: $ and ( join", `echo "$${NL}(id)"`, 'echo "$(id)"'],
  ["single quotes keep it", `echo 'a${NL}b'`, `echo 'a${NL}b'`],
  ["$'...' keeps it", `echo $'a${NL}b'`, `echo $'a${NL}b'`],
  ["a comment keeps it (and ends at the newline)", `echo a # c ${NL}echo b`, `echo a # c ${NL}echo b`],
  ["an escaped backslash is no continuation", "echo a\\\\\necho b", "echo a\\\\\necho b"],
  ["an unquoted here-document body joins", `cat <<E\n$${NL}(id)\nE`, "cat <<E\n$(id)\nE"],
  ["a quoted here-document body keeps it", `cat <<'E'\n$${NL}(id)\nE`, `cat <<'E'\n$${NL}(id)\nE`],
  ["a here-string joins", `cat <<< "$${NL}(id)"`, 'cat <<< "$(id)"'],
  ["backticks join even inside single quotes", `echo \`echo 'a${NL}b'\``, "echo `echo 'ab'`"],
  ["$(...) keeps single quotes", `echo $(echo 'a${NL}b')`, `echo $(echo 'a${NL}b')`],
  ["single quotes in a double-quoted ${} are plain text", `echo "\${x:-'a${NL}b'}"`, `echo "\${x:-'ab'}"`],
  ["single quotes in an unquoted ${} quote", `echo \${x:-'a${NL}b'}`, `echo \${x:-'a${NL}b'}`],
];

describe("joinContinuations against bash", () => {
  it.each(cases)("%s", (_name, line, joined) => {
    expect(joinContinuations(line)?.text).toBe(joined);
  });

  it("bash prints the same for the line and its joined form (bash 5.2 on this machine)", () => {
    const run = (line: string) => spawnSync("bash", ["-c", line], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
    for (const [, line] of cases) {
      const printed = line.replace(/^(git status|ca)/, "echo $1").replace(/\bid\b/g, "echo ID");
      const joined = joinContinuations(printed)?.text ?? "";
      expect(run(joined).stdout, JSON.stringify(printed)).toBe(run(printed).stdout);
    }
  });
});
