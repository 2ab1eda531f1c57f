// Every command fed the same bad inputs: a missing path, a file instead of a folder, an empty folder, a folder whose only
// skill cannot be loaded, an unknown flag, and flags in another order. Asserts message, stream and exit code, and that no
// stack trace is printed anywhere.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../test/support/skill-tree.js";
import { captureIO } from "./__fixtures__/capture-io.js";
import { runCli } from "./run-cli.js";

const root = writeTree({
  "good/release-notes/SKILL.md": skillMd("release-notes", "Write release notes from merged changes."),
  "broken/bad-yaml/SKILL.md": "---\nname: [unclosed\ndescription: x\n---\nbody\n",
  "mixed/release-notes/SKILL.md": skillMd("release-notes", "Write release notes from merged changes."),
  "mixed/bad-yaml/SKILL.md": "---\nname: [unclosed\ndescription: x\n---\nbody\n",
  "a-file.txt": "not a folder\n",
});
mkdirSync(join(root, "empty"));
writeFileSync(join(root, "empty", "README.md"), "no skills here\n");

const missing = join(root, "does-not-exist");
const file = join(root, "a-file.txt");
const empty = join(root, "empty");
const broken = join(root, "broken");

/** Each command with the way it takes a skills folder. */
const commands: Record<string, (dir: string) => string[]> = {
  list: (dir) => ["list", "--skills", dir],
  search: (dir) => ["search", "release notes", "--skills", dir],
  "prompt --skills": (dir) => ["prompt", "--skills", dir],
  "prompt PATH": (dir) => ["prompt", dir],
  "prompt --chat": (dir) => ["prompt", "--chat", "--skills", dir],
  show: (dir) => ["show", "release-notes", "--skills", dir],
  "validate --all": (dir) => ["validate", "--all", dir],
  chat: (dir) => ["chat", "-p", "hi", "--ephemeral", "--skills", dir],
  "sessions show": (dir) => ["sessions", "show", "x", "--checkpoint", "memory:", "--skills", dir],
};

const env = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

async function run(args: string[]) {
  const io = captureIO(root, env);
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

function expectOneErrorLine(result: { out: string; err: string }, ...fragments: string[]) {
  const errors = result.err.split("\n").filter((line) => line.startsWith("error:"));
  expect(errors).toHaveLength(1);
  for (const fragment of fragments) expect(errors[0]).toContain(fragment);
  expect(result.out).toBe("");
  expect(`${result.out}${result.err}`).not.toMatch(/\n\s+at \S+ \(|^\s+at /m);
}

describe.each(Object.entries(commands))("skillgraph %s with a bad skills folder", (_name, argsFor) => {
  it("a missing path: exit 1, one error line naming the path", async () => {
    const result = await run(argsFor(missing));
    expect(result.code).toBe(1);
    expectOneErrorLine(result, missing, "does not exist");
  });

  it("a URL (an https:// skill or archive): exit 1, one error line saying nothing is downloaded", async () => {
    const result = await run(argsFor("https://example.com/skills.tar.gz"));
    expect(result.code).toBe(1);
    expectOneErrorLine(result, "'https://example.com/skills.tar.gz' is a URL: skills are not downloaded at run time");
  });

  it("a file instead of a folder: exit 1, 'is not a folder'", async () => {
    const result = await run(argsFor(file));
    expect(result.code).toBe(1);
    expectOneErrorLine(result, file, "is not a folder");
  });

  it("an empty folder: exit 1, no skill found there", async () => {
    const result = await run(argsFor(empty));
    expect(result.code).toBe(1);
    expectOneErrorLine(result, empty);
    expect(result.err).toMatch(/no skill|SKILL\.md/);
  });

  it("a folder whose only skill cannot be loaded: exit 1, the reason reported", async () => {
    const result = await run(argsFor(_name === "prompt PATH" ? join(broken, "bad-yaml") : broken));
    expect(result.code).toBe(1);
    // validate reports the invalid skill on stdout (that is its output); the others print nothing there.
    if (_name.startsWith("validate")) expect(result.out).toMatch(/✗ invalid .*bad-yaml[\s\S]*0 valid, 1 invalid/);
    else expect(result.out).toBe("");
    expect(`${result.out}${result.err}`).toContain("bad-yaml");
    expect(result.err).not.toMatch(/^\s+at /m);
  });

  it("an unknown flag: exit 2, the flag named with the usage line", async () => {
    const result = await run([...argsFor(join(root, "good")), "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toMatch(/^error: skillgraph \S+: Unknown option '--bogus'/);
    expect(result.err).toContain("Usage: skillgraph");
    expect(result.err).not.toMatch(/^\s+at /m);
  });
});

describe("unloadable skills next to good ones", () => {
  it.each([
    ["list", ["list", "--skills", join(root, "mixed")]],
    ["search", ["search", "release notes", "--skills", join(root, "mixed")]],
  ])("%s works, and reports the count and first reason on stderr, once", async (name, args) => {
    const result = await run(args);
    // list says something could not be read with its exit code; search still answers (exit 0).
    expect(result.code).toBe(name === "list" ? 1 : 0);
    expect(result.out).toContain("release-notes");
    expect(result.err).toMatch(/^warning: 1 skill could not be loaded:\n {2}.*bad-yaml/m);
    expect(`${result.out}${result.err}`.split("bad-yaml")).toHaveLength(2);
  });

  it("list --json exits 1 too, with each problem's path and cause in diagnostics", async () => {
    const result = await run(["list", "--json", "--skills", join(root, "mixed")]);
    expect(result.code).toBe(1);
    expect(result.err).toBe("");
    const payload = JSON.parse(result.out) as { diagnostics: Array<{ code: string; path: string; message: string }> };
    expect(payload.diagnostics).toEqual([
      expect.objectContaining({ code: "yaml-invalid", path: join(root, "mixed", "bad-yaml", "SKILL.md") }),
    ]);
  });

  it("--verbose lists every reason, not only the first 3", async () => {
    const many = writeTree(
      Object.fromEntries([
        ["ok/SKILL.md", skillMd("ok", "Fine.")],
        ...[1, 2, 3, 4, 5].map((n) => [`bad-${n}/SKILL.md`, "---\nname: [unclosed\ndescription: x\n---\nbody\n"]),
      ]),
    );
    const short = captureIO(many);
    expect(await runCli(["list", "--skills", many], short)).toBe(1);
    expect(short.err()).toContain("warning: 5 skills could not be loaded");
    expect(short.err()).toContain("... and 2 more (--verbose shows all)");
    const all = captureIO(many);
    expect(await runCli(["list", "--verbose", "--skills", many], all)).toBe(1);
    expect(
      all
        .err()
        .split("\n")
        .filter((line) => line.includes("bad-")),
    ).toHaveLength(5);
  });
});

describe("flag order is free", () => {
  const good = join(root, "good");
  it.each([
    [
      ["validate", "--all", "--json", good],
      ["validate", "--json", "--all", good],
      ["validate", good, "--json", "--all"],
    ],
    [
      ["list", "--json", "--skills", good],
      ["list", "--skills", good, "--json"],
      ["list", "--skills", good, "--json"],
    ],
    [
      ["search", "release", "--json", "--skills", good],
      ["search", "--skills", good, "--json", "release"],
      ["search", "--json", "release", "--skills", good],
    ],
  ])("%j gives the same output in every order", async (...orders) => {
    const results = await Promise.all(orders.map(run));
    for (const result of results) expect(result.code).toBe(0);
    expect(new Set(results.map((result) => result.out)).size).toBe(1);
  });
});

describe("consistent answers", () => {
  it("validate PARENT: invalid (skill-md-missing) with a hint at --all on stderr", async () => {
    const result = await run(["validate", join(root, "good")]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/✗ invalid good .*\n {4}error: skill-md-missing/);
    expect(result.err).toMatch(/^hint: .*holds 1 skill: did you mean 'skillgraph validate --all /);
  });

  it("sessions show, prune and delete of an unknown session all exit 1", async () => {
    const db = `sqlite:${join(root, "sessions.db")}`;
    for (const args of [
      ["show", "nope"],
      ["delete", "nope"],
      ["prune", "nope", "--keep-last", "1"],
    ]) {
      const result = await run(["sessions", ...args, "--checkpoint", db]);
      expect(result.code, args.join(" ")).toBe(1);
      expectOneErrorLine(result, "session 'nope' not found");
    }
  });

  it("an unknown command exits 2 and lists the commands", async () => {
    const result = await run(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("error: unknown command 'frobnicate'");
    expect(result.err).toContain("validate");
  });

  it("--version prints the package version", async () => {
    const result = await run(["--version"]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
