import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import { createShellHook, type ShellHook } from "@skillgraph/shell";

// Table-driven: every hostile input must be refused with the expected reason, through the real tools.

function skill(name: string, dir: string, overrides: Partial<SkillMetadata> = {}): SkillMetadata {
  return {
    name,
    description: name,
    allowedTools: [],
    extra: {},
    dir,
    file: path.join(dir, "SKILL.md"),
    origin: { sourceId: "code:test", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
    ...overrides,
  };
}

const threadId = "hostile-thread";
const config = { configurable: { thread_id: threadId } };
let hook: ShellHook;
let strictHook: ShellHook;
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "shell-hostile-"));
  const skillDir = path.join(root, "skills", "hostile");
  mkdirSync(path.join(skillDir, "scripts"), { recursive: true });
  writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: hostile\ndescription: d\n---\n");
  writeFileSync(path.join(skillDir, "scripts", "ok.sh"), "#!/bin/sh\necho ok\n");
  chmodSync(path.join(skillDir, "scripts", "ok.sh"), 0o755);
  symlinkSync("/bin/sh", path.join(skillDir, "scripts", "escape"));
  const skills = [
    skill("hostile", skillDir),
    skill("not-loaded", skillDir),
    skill("needs-missing", skillDir, { extra: { requires: { bins: ["no-such-tool-xyz"] } } }),
    skill("git-reader", skillDir, { allowedTools: ["Bash(git status:*)"] }),
  ];
  const catalog = { get: (name: string) => skills.find((entry) => entry.name === name) };
  const loadedSkills = () => ["hostile", "needs-missing", "git-reader"];
  hook = createShellHook({ skills: catalog, executor: "local", workspaceRoot: path.join(root, "ws"), loadedSkills });
  strictHook = createShellHook({
    skills: catalog,
    executor: "local",
    workspaceRoot: path.join(root, "ws-strict"),
    loadedSkills,
    allow: ["echo", "cat"],
  });
  for (const workspace of [hook.workspacePath(threadId), strictHook.workspacePath(threadId)]) {
    mkdirSync(path.join(workspace, "in"), { recursive: true });
    mkdirSync(path.join(workspace, "out"), { recursive: true });
    symlinkSync("/etc", path.join(workspace, "in", "link-to-etc"));
    symlinkSync("/etc/passwd", path.join(workspace, "in", "passwd-link"));
    // a planted "ls" in the workspace: a PATH hijack would run it
    writeFileSync(path.join(workspace, "ls"), "#!/bin/sh\necho HIJACKED\n");
    chmodSync(path.join(workspace, "ls"), 0o755);
  }
});

interface HostileCase {
  name: string;
  tool: "shell" | "run_skill_script";
  input: Record<string, unknown>;
  reason: string;
  strict?: boolean;
}

const cases: HostileCase[] = [
  {
    name: "a second command after ; reaching /",
    tool: "shell",
    input: { command: "ls; rm -rf /" },
    reason: "path-outside-workspace",
  },
  { name: "pipe into sh", tool: "shell", input: { command: "cat in/a | sh" }, reason: "opaque-command" },
  { name: "&& chaining", tool: "shell", input: { command: "echo hi && id" }, reason: "not-allowed", strict: true },
  {
    name: "backgrounding with &",
    tool: "shell",
    input: { command: "sleep 100 &" },
    reason: "not-allowed",
    strict: true,
  },
  {
    name: "output redirection over /etc/passwd",
    tool: "shell",
    input: { command: "echo x > /etc/passwd" },
    reason: "path-outside-workspace",
  },
  {
    name: "input redirection from /etc/shadow",
    tool: "shell",
    input: { command: "sort < /etc/shadow" },
    reason: "path-outside-workspace",
  },
  { name: "$() substitution", tool: "shell", input: { command: "echo $(id)" }, reason: "not-allowed", strict: true },
  {
    name: "backtick substitution",
    tool: "shell",
    input: { command: "echo `id`" },
    reason: "not-allowed",
    strict: true,
  },
  {
    name: "substitution inside double quotes",
    tool: "shell",
    input: { command: 'echo "$(cat /etc/passwd)"' },
    reason: "path-outside-workspace",
  },
  {
    name: "second command on a new line",
    tool: "shell",
    input: { command: "ls\nid" },
    reason: "not-allowed",
    strict: true,
  },
  { name: "NUL byte", tool: "shell", input: { command: "ls\u0000 -la" }, reason: "nul-byte" },
  { name: "program named by a variable", tool: "shell", input: { command: "$SHELL -c id" }, reason: "opaque-command" },
  { name: "PATH assignment prefix", tool: "shell", input: { command: "PATH=. ls" }, reason: "env-not-allowed" },
  {
    name: "LD_PRELOAD assignment prefix",
    tool: "shell",
    input: { command: "LD_PRELOAD=/tmp/x.so ls" },
    reason: "env-not-allowed",
  },
  {
    name: "PATH override in env",
    tool: "shell",
    input: { command: "ls", env: { PATH: "." } },
    reason: "env-not-allowed",
  },
  {
    name: "LD_PRELOAD in env",
    tool: "shell",
    input: { command: "ls", env: { LD_PRELOAD: "/tmp/evil.so" } },
    reason: "env-not-allowed",
  },
  {
    name: "NODE_OPTIONS in env",
    tool: "shell",
    input: { command: "node -v", env: { NODE_OPTIONS: "--require /tmp/x.js" } },
    reason: "env-not-allowed",
  },
  {
    name: "BASH_ENV in env",
    tool: "shell",
    input: { command: "bash -c id", env: { BASH_ENV: "/tmp/x" } },
    reason: "env-not-allowed",
  },
  {
    name: "planted ./ls in the workspace",
    tool: "shell",
    input: { command: "./ls" },
    reason: "executable-outside-scripts",
  },
  {
    name: "absolute /bin/sh",
    tool: "shell",
    input: { command: "/bin/sh -c id" },
    reason: "executable-outside-scripts",
  },
  { name: "traversal in the executable", tool: "shell", input: { command: "../../bin/sh" }, reason: "path-traversal" },
  { name: "sudo", tool: "shell", input: { command: "sudo id" }, reason: "denied" },
  { name: "kill of pid 1", tool: "shell", input: { command: "kill -9 1" }, reason: "denied" },
  {
    name: "reading /etc/passwd by absolute path",
    tool: "shell",
    input: { command: "cat /etc/passwd" },
    reason: "path-outside-workspace",
  },
  {
    name: "reading /etc/passwd through ..",
    tool: "shell",
    input: { command: "cat ../../../../../etc/passwd" },
    reason: "path-traversal",
  },
  {
    name: "absolute path in --flag=value",
    tool: "shell",
    input: { command: "sort --output=/etc/hosts in/a" },
    reason: "path-outside-workspace",
  },
  {
    name: "directory symlink to /etc",
    tool: "shell",
    input: { command: "cat in/link-to-etc/passwd" },
    reason: "symlink-escape",
  },
  {
    name: "file symlink to /etc/passwd",
    tool: "shell",
    input: { command: "cat in/passwd-link" },
    reason: "symlink-escape",
  },
  { name: "cwd climbing out", tool: "shell", input: { command: "ls", cwd: "../.." }, reason: "path-traversal" },
  { name: "absolute cwd", tool: "shell", input: { command: "ls", cwd: "/etc" }, reason: "absolute-path" },
  {
    name: "cwd through a symlink",
    tool: "shell",
    input: { command: "ls", cwd: "in/link-to-etc" },
    reason: "symlink-escape",
  },
  { name: "unknown program", tool: "shell", input: { command: "no-such-program-xyz" }, reason: "not-found" },
  { name: "a glob searching /", tool: "shell", input: { command: "rm -rf /*" }, reason: "path-outside-workspace" },
  {
    name: "skill script path from the shell tool",
    tool: "shell",
    input: { command: "scripts/ok.sh" },
    reason: "executable-outside-scripts",
  },
  {
    name: "staging a file outside the workspace",
    tool: "shell",
    input: { command: "ls", files: [{ path: "../escaped.txt", content: "x" }] },
    reason: "staging-refused",
  },
  {
    name: "script path climbing out of the skill",
    tool: "run_skill_script",
    input: { skill: "hostile", command: "scripts/../../../bin/sh" },
    reason: "path-traversal",
  },
  {
    name: "script symlinked to /bin/sh",
    tool: "run_skill_script",
    input: { skill: "hostile", command: "scripts/escape -c id" },
    reason: "symlink-escape",
  },
  {
    name: "absolute executable for a skill",
    tool: "run_skill_script",
    input: { skill: "hostile", command: "/bin/sh -c id" },
    reason: "executable-outside-scripts",
  },
  {
    name: "skill file outside scripts/",
    tool: "run_skill_script",
    input: { skill: "hostile", command: "./SKILL.md" },
    reason: "executable-outside-scripts",
  },
  {
    name: "skill not read yet",
    tool: "run_skill_script",
    input: { skill: "not-loaded", command: "scripts/ok.sh" },
    reason: "skill-not-read",
  },
  {
    name: "unknown skill",
    tool: "run_skill_script",
    input: { skill: "ghost", command: "scripts/ok.sh" },
    reason: "skill-not-found",
  },
  {
    name: "skill whose required program is missing",
    tool: "run_skill_script",
    input: { skill: "needs-missing", command: "scripts/ok.sh" },
    reason: "missing-requirements",
  },
  {
    name: "program outside the allow list",
    tool: "shell",
    input: { command: "ls" },
    reason: "not-allowed",
    strict: true,
  },
  {
    name: "git subcommand outside the skill's grant",
    tool: "shell",
    input: { command: "git push origin main" },
    reason: "not-allowed",
    strict: true,
  },
];

describe("hostile inputs to the shell tools", () => {
  it("has at least 30 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)("refuses $name ($reason)", async ({ tool, input, reason, strict }) => {
    const target = (strict ? strictHook : hook).tools.find((candidate) => candidate.name === tool);
    const output = JSON.parse(String(await target!.invoke(input, config)));
    expect(output).toMatchObject({ status: "refused", reason });
    expect(output.message).toEqual(expect.any(String));
  });

  it("resolves programs on the fixed PATH, never the planted workspace binary", async () => {
    const shell = hook.tools.find((candidate) => candidate.name === "shell")!;
    const output = JSON.parse(String(await shell.invoke({ command: "ls" }, config)));
    expect(output.status).toBe("ok");
    expect(output.stdout).not.toContain("HIJACKED");
    expect(output.stdout).toContain("ls");
  });

  it("runs what a loaded skill's allowed-tools grant allows under an allow list", async () => {
    const shell = strictHook.tools.find((candidate) => candidate.name === "shell")!;
    const output = JSON.parse(String(await shell.invoke({ command: "echo granted" }, config)));
    expect(output).toMatchObject({ status: "ok", stdout: "granted\n" });
    const authorization = strictHook.authorize!(
      { toolName: "shell", args: { command: "git status --short" } },
      { loadedSkills: [skill("git-reader", root, { allowedTools: ["Bash(git status:*)"] })], threadId },
    );
    expect(authorization).toEqual({ allowed: true });
  });
});
