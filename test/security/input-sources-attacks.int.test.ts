import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import { createShellHook, type ShellHookOptions } from "@skillgraph/shell";

// Declared inputs copy host files into the workspace: a host:// input must stay inside the host folder the application
// lists (a hard link is the same file under another name, possibly outside), and a skill:// input must stay inside the
// named skill (a nested skill's folder belongs to that skill, which the agent's view may exclude).

const root = mkdtempSync(path.join(os.tmpdir(), "input-attacks-"));

function skill(name: string, dir: string): SkillMetadata {
  return {
    name,
    description: name,
    allowedTools: [],
    extra: {},
    dir,
    file: path.join(dir, "SKILL.md"),
    origin: { sourceId: "code:attack", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
  };
}

const parentDir = path.join(root, "skills", "parent");
const childDir = path.join(parentDir, "child");
mkdirSync(path.join(childDir, "deep"), { recursive: true });
writeFileSync(path.join(parentDir, "SKILL.md"), "---\nname: parent\ndescription: p\n---\n");
writeFileSync(path.join(parentDir, "notes.txt"), "parent's own\n");
writeFileSync(path.join(childDir, "SKILL.md"), "---\nname: child\ndescription: c\n---\n");
writeFileSync(path.join(childDir, "deep", "secret.txt"), "child's secret\n");
symlinkSync("child/deep/secret.txt", path.join(parentDir, "via-link.txt"));
const skills = [skill("parent", parentDir), skill("child", childDir)];

function hook(options: Partial<ShellHookOptions>) {
  return createShellHook({
    skills: { get: (name: string) => skills.find((entry) => entry.name === name) },
    executor: "local",
    alwaysVisible: ["shell"],
    workspaceRoot: mkdtempSync(path.join(root, "ws-")),
    sessions: false,
    ...options,
  });
}

async function run(shell: ReturnType<typeof hook>, input: Record<string, unknown>) {
  const tool = shell.tools.find((candidate) => candidate.name === "shell")!;
  return JSON.parse(String(await tool.invoke(input, { configurable: { thread_id: "inputs" } }))) as Record<string, any>;
}

describe("host:// inputs never follow a hard link out of the host folder", () => {
  it("a hard link in the listed folder to a file outside it is refused; an ordinary file is staged", async () => {
    const outside = mkdtempSync(path.join(root, "outside-"));
    writeFileSync(path.join(outside, "id_rsa"), "PRIVATE KEY\n");
    const data = mkdtempSync(path.join(root, "data-"));
    linkSync(path.join(outside, "id_rsa"), path.join(data, "report.csv"));
    writeFileSync(path.join(data, "plain.csv"), "a,b\n");
    const shell = hook({ hostInputs: { data } });
    try {
      const leaked = await run(shell, { command: "cat in/report.csv", inputs: [{ from: "host://data/report.csv" }] });
      expect(leaked).toMatchObject({ status: "refused", reason: "staging-refused" });
      expect(JSON.stringify(leaked)).not.toContain("PRIVATE KEY");
      const plain = await run(shell, { command: "cat in/plain.csv", inputs: [{ from: "host://data/plain.csv" }] });
      expect(plain).toMatchObject({ status: "ok", stdout: "a,b\n" });
    } finally {
      await shell.dispose();
    }
  });
});

describe("skill:// inputs never read another skill's files", () => {
  const shell = hook({ loadedSkills: () => ["parent"] });

  it.each([
    ["a path into the nested skill's folder", "skill://parent/child/deep/secret.txt"],
    ["the nested skill's SKILL.md", "skill://parent/child/SKILL.md"],
    ["a symlink in the parent leading into the nested skill", "skill://parent/via-link.txt"],
  ])("refuses %s", async (_name, from) => {
    const result = await run(shell, { command: "cat in/*", inputs: [{ from }] });
    expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
    expect(JSON.stringify(result)).not.toContain("child's secret");
  });

  it("refuses a hard link in a folder skill (the same file as one outside the skill)", async () => {
    const outside = mkdtempSync(path.join(root, "outside-"));
    writeFileSync(path.join(outside, "id_rsa"), "PRIVATE KEY\n");
    linkSync(path.join(outside, "id_rsa"), path.join(parentDir, "template.txt"));
    const result = await run(shell, { command: "cat in/*", inputs: [{ from: "skill://parent/template.txt" }] });
    expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
    expect(JSON.stringify(result)).not.toContain("PRIVATE KEY");
  });

  it("the parent's own file is staged", async () => {
    const result = await run(shell, { command: "cat in/notes.txt", inputs: [{ from: "skill://parent/notes.txt" }] });
    expect(result).toMatchObject({ status: "ok", stdout: "parent's own\n" });
  });

  it("a skill not in the agent's view is refused by name", async () => {
    const result = await run(shell, { command: "true", inputs: [{ from: "skill://child/deep/secret.txt" }] });
    expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
  });
});
