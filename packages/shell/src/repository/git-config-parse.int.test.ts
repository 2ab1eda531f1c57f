import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { expect, it } from "vitest";
import { type GitConfigEntry, parseGitConfig } from "./git-config-parse.js";

// The parser reads a subset of git's syntax and refuses the rest; whatever it accepts must mean to it what it means to
// git. Files are generated from the pieces of the grammar (headers of every form, keys, values with quotes, escapes,
// comments and continuations, blanks and line ends), and each file the parser accepts is listed by git itself.

const pieces = [
  "[core]",
  '[Remote "o\\"r"]',
  "[branch.Main]",
  "[a.b.c]",
  '[x ""]',
  "[",
  "]",
  "\n",
  "\t",
  " ",
  "bare",
  "Key-2",
  "=",
  " = ",
  '"',
  "\\",
  "\\\n",
  "\\n",
  "\\t",
  "\\b",
  '\\"',
  "\\\\",
  "#",
  ";",
  "a b",
  "v.1",
  "é",
  "\r\n",
];

function gitList(text: string, dir: string): string[] {
  const file = path.join(dir, "config");
  writeFileSync(file, text);
  const out = execFileSync("git", ["config", "--file", file, "--list", "-z"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
  });
  return out.split("\0").filter((item) => item !== "");
}

const asGitLists = (entry: GitConfigEntry) =>
  `${entry.section}${entry.subsection === undefined ? "" : `.${entry.subsection}`}.${entry.key}` +
  (entry.value === null ? "" : `\n${entry.value}`);

it("every file the parser accepts means the same entries to git", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "git-config-parse-"));
  let accepted = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
      const text = `[core]\n${parts.join("")}\n`;
      const parsed = parseGitConfig(text);
      if (parsed === undefined) return; // refused: the sanitiser keeps only what it can salvage line by line
      accepted += 1;
      expect(gitList(text, dir), JSON.stringify(text)).toEqual(parsed.map(asGitLists));
    }),
    { numRuns: 3000 },
  );
  // the generator reaches accepted files, not only refusals
  expect(accepted).toBeGreaterThan(300);
});
