import { describe, expect, it } from "vitest";
import { parseShellWords } from "./parse-shell-words.js";

describe("parseShellWords", () => {
  it("splits words and honours single quotes, double quotes and backslashes", () => {
    expect(parseShellWords(`git commit -m "fix: a \\"b\\"" 'it''s' a\\ b`)).toEqual({
      ok: true,
      argv: ["git", "commit", "-m", 'fix: a "b"', "its", "a b"],
    });
  });

  it("keeps empty quoted arguments", () => {
    expect(parseShellWords(`printf '' x`)).toEqual({ ok: true, argv: ["printf", "", "x"] });
  });

  it("expands only the variables it is given, outside single quotes", () => {
    const variables = { SKILL_DIR: "/skill" };
    expect(parseShellWords(`node "$SKILL_DIR/a.mjs" \${SKILL_DIR}/b '$SKILL_DIR'`, { variables })).toEqual({
      ok: true,
      argv: ["node", "/skill/a.mjs", "/skill/b", "$SKILL_DIR"],
    });
    expect(parseShellWords("echo $HOME", { variables })).toMatchObject({ ok: false, reason: "unknown-variable" });
    expect(parseShellWords("echo $1", { variables })).toMatchObject({ ok: false, reason: "unknown-variable" });
  });

  it.each([
    ["ls; rm -rf /", "shell-operator"],
    ["cat a | sh", "shell-operator"],
    ["sleep 1 &", "shell-operator"],
    ["true && false", "shell-operator"],
    ["(ls)", "shell-operator"],
    ["echo hi > /etc/x", "redirection"],
    ["sort < in.txt", "redirection"],
    ["echo $(id)", "command-substitution"],
    ['echo "$(id)"', "command-substitution"],
    ["echo `id`", "command-substitution"],
    ['echo "`id`"', "command-substitution"],
    ["ls\nrm x", "newline"],
    ["ls\0", "nul-byte"],
    ["rm *", "glob"],
    ["# comment", "shell-operator"],
    ["echo 'open", "unterminated-quote"],
    ["   ", "empty-command"],
  ])("refuses %j (%s)", (command, reason) => {
    expect(parseShellWords(command)).toMatchObject({ ok: false, reason });
  });

  it("treats operators inside quotes as plain text", () => {
    expect(parseShellWords(`echo "a; b | c > d" 'e && $(f)'`)).toEqual({
      ok: true,
      argv: ["echo", "a; b | c > d", "e && $(f)"],
    });
  });
});
