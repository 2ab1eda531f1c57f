import { describe, expect, it } from "vitest";
import { GIT_CONFIG_ITEMS_PER_STEP, parseGitConfig } from "./git-config-parse.js";
import { MAX_GIT_CONFIG_BYTES, sanitizeGitConfig, sanitizeGitConfigSteps } from "./git-config-sanitize.js";

const HOOKS = "/.no-hooks";
const entriesOf = (text: string) => parseGitConfig(sanitizeGitConfig(text, HOOKS));

describe("git configuration parsing", () => {
  it("reads sections, subsections, the old dotted form, bare keys, quotes, escapes and continuations", () => {
    const text =
      '\uFEFF# c\n[Core]\n\tBare = false ; c\n\tfilemode\n[remote "o\\"r"]\n\turl = "a b"  c \\\n d\n[branch.Main]\n\tmerge = refs/heads/main\n';
    expect(parseGitConfig(text)).toEqual([
      { section: "core", key: "bare", value: "false" },
      { section: "core", key: "filemode", value: null },
      { section: "remote", subsection: 'o"r', key: "url", value: "a b  c  d" }, // as git reads it
      { section: "branch", subsection: "main", key: "merge", value: "refs/heads/main" },
    ]);
  });

  it.each([
    ["a key before any section", "bare = true\n"],
    ["an unterminated quote", '[core]\n\tbare = "true\n'],
    ["an unknown escape", "[core]\n\tbare = \\q\n"],
    ["a NUL", "[core]\n\tbare = true\0\n"],
    ["a lone carriage return", "[core]\n\tbare = tr\rue\n"],
    ["a header with no closing bracket", "[core\n\tbare = true\n"],
    ["a subsection header with a newline", '[remote "a\n"]\n'],
    ["a key starting with a digit", "[core]\n\t1bare = true\n"],
  ])("refuses %s", (_name, text) => {
    expect(parseGitConfig(text)).toBeUndefined();
  });
});

describe("git configuration sanitising", () => {
  const hostile = [
    "[core]",
    "\trepositoryformatversion = 0",
    "\tbare = false",
    "\tfsmonitor = touch /tmp/x",
    "\thooksPath = myhooks",
    "\tsshCommand = touch /tmp/x",
    "\tpager = touch /tmp/x",
    "\teditor = touch /tmp/x",
    "[include]",
    "\tpath = ../evil.cfg",
    '[includeIf "gitdir:/"]',
    "\tpath = ../evil.cfg",
    '[filter "x"]',
    "\tclean = touch /tmp/x",
    '[diff "x"]',
    "\ttextconv = touch /tmp/x",
    "\tcommand = touch /tmp/x",
    "[diff]",
    "\texternal = touch /tmp/x",
    "\trenames = true",
    '[merge "x"]',
    "\tdriver = touch /tmp/x",
    "[pager]",
    "\tstatus = touch /tmp/x",
    "[alias]",
    "\tst = !touch /tmp/x",
    "[credential]",
    "\thelper = !touch /tmp/x",
    '[remote "origin"]',
    "\turl = ../remote.git",
    "\tfetch = +refs/heads/*:refs/remotes/origin/*",
    "\tuploadpack = touch /tmp/x",
    "\treceivepack = touch /tmp/x",
    "\tproxy = touch /tmp/x",
    "\tvcs = evil",
    '[submodule "s"]',
    "\turl = ../s",
    "\tupdate = !touch /tmp/x",
    "[gpg]",
    "\tprogram = touch /tmp/x",
    '[protocol "ext"]',
    "\tallow = always",
    '[url "ext::sh -c touch% /tmp/x"]',
    "\tinsteadOf = https://",
    '[branch "main"]',
    "\tremote = origin",
    "\tmerge = refs/heads/main",
    "[user]",
    "\tname = t",
    "",
  ].join("\n");

  it("keeps only settings that name no program, then adds the hardening", () => {
    expect(entriesOf(hostile)).toEqual([
      { section: "core", key: "repositoryformatversion", value: "0" },
      { section: "core", key: "bare", value: "false" },
      { section: "diff", key: "renames", value: "true" },
      { section: "remote", subsection: "origin", key: "url", value: "../remote.git" },
      { section: "remote", subsection: "origin", key: "fetch", value: "+refs/heads/*:refs/remotes/origin/*" },
      { section: "submodule", subsection: "s", key: "url", value: "../s" },
      { section: "branch", subsection: "main", key: "remote", value: "origin" },
      { section: "branch", subsection: "main", key: "merge", value: "refs/heads/main" },
      { section: "user", key: "name", value: "t" },
      { section: "core", key: "hookspath", value: HOOKS },
      { section: "core", key: "fsmonitor", value: "false" },
      { section: "protocol", subsection: "ext", key: "allow", value: "never" },
    ]);
  });

  it("writes values back so that no value can start a line of its own", () => {
    const text = '[user]\n\tname = "a\\n[filter \\"x\\"]\\n\\tclean = evil"\n';
    const out = sanitizeGitConfig(text, HOOKS);
    expect(out).not.toMatch(/^\s*\[filter/m);
    expect(parseGitConfig(out)?.find((entry) => entry.section === "user")).toEqual({
      section: "user",
      key: "name",
      value: 'a\n[filter "x"]\n\tclean = evil',
    });
  });

  it("keeps only the core basics and remote/branch urls and refs of a file that is not git syntax", () => {
    const text = [
      "[core]",
      "\tbare = \\q",
      "\tfilemode = true",
      "\tfsmonitor = evil",
      '[remote "origin"]',
      "\turl = ../remote.git",
      "\tuploadpack = evil",
      '[filter "x"]',
      "\tclean = evil",
      '[branch "main"]',
      "\tmerge = refs/heads/main",
      "\tremote = origin # c",
      "[core]",
      "\tbare = false \\",
      '[filter "y"]',
      "\tclean = evil",
    ].join("\n");
    expect(entriesOf(text)).toEqual([
      { section: "core", key: "repositoryformatversion", value: "0" },
      { section: "core", key: "filemode", value: "true" },
      { section: "remote", subsection: "origin", key: "url", value: "../remote.git" },
      { section: "branch", subsection: "main", key: "merge", value: "refs/heads/main" },
      { section: "core", key: "hookspath", value: HOOKS },
      { section: "core", key: "fsmonitor", value: "false" },
      { section: "protocol", subsection: "ext", key: "allow", value: "never" },
    ]);
  });

  it.each([
    ["unreadable", undefined],
    ["not git syntax, with nothing plain to keep", '[core]\n\tbare = \\q\n[filter "x"]\n\tclean = evil\n'],
    ["too large", `[core]\n\tbare = false\n${"#".repeat(MAX_GIT_CONFIG_BYTES + 1)}\n`],
  ])("fails closed on a file that is %s: the minimal configuration", (_name, text) => {
    expect(entriesOf(text as string)).toEqual([
      { section: "core", key: "repositoryformatversion", value: "0" },
      { section: "core", key: "hookspath", value: HOOKS },
      { section: "core", key: "fsmonitor", value: "false" },
      { section: "protocol", subsection: "ext", key: "allow", value: "never" },
    ]);
  });
});

describe("git configuration sanitising in steps", () => {
  // the largest file read, in each shape that makes one part of the work (parse, allow-list, salvage, write) longest
  const fill = (unit: string) => unit.repeat(Math.floor((MAX_GIT_CONFIG_BYTES - 64) / unit.length));
  it.each([
    ["entries the allow-list drops", fill('[filter "x"]\n\tclean = cat\n')],
    ["entries it keeps", fill("[core]\n\tbare\n")],
    ["lines of a file that is not git syntax", `[core]\n\tbare = \\q\n${fill("[core]\n\tbare = false\n")}`],
  ])("pauses every few hundred items: %s", (_name, text) => {
    const lines = text.split("\n").length;
    const steps = sanitizeGitConfigSteps(text, HOOKS);
    let pauses = 0;
    let result = steps.next();
    for (; !result.done; result = steps.next()) pauses += 1;
    expect(result.value).toBe(sanitizeGitConfig(text, HOOKS));
    // each pass (read, allow-list or salvage, write) pauses after every GIT_CONFIG_ITEMS_PER_STEP items it covers:
    // at least one pause per that many lines in all
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(lines / GIT_CONFIG_ITEMS_PER_STEP));
  });
});
