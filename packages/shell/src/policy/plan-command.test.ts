import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import { DEFAULT_DENIED_PROGRAMS, type CommandPolicy } from "./command-policy.js";
import { parseCommandRule } from "./command-rules.js";
import { planCommand } from "./plan-command.js";
import { resolveExecutable } from "./program-resolution.js";

const policy: CommandPolicy = {
  deny: DEFAULT_DENIED_PROGRAMS.map((name) => parseCommandRule(name, "deny", { prefix: true })!),
  envAllow: new Set(["TZ"]),
  fixedPath: "/usr/local/bin:/usr/bin:/bin",
  confinePaths: true,
  readablePaths: ["/dev/null"],
  syntax: "full",
  opaqueNeedsApproval: false,
};

beforeAll(() => loadBashParser());

function setup() {
  const root = mkdtempSync(path.join(os.tmpdir(), "shell-plan-"));
  const skillDir = path.join(root, "skill");
  const workspaceDir = path.join(root, "ws");
  mkdirSync(path.join(skillDir, "scripts"), { recursive: true });
  mkdirSync(workspaceDir);
  writeFileSync(path.join(skillDir, "scripts", "no-exec.sh"), "echo hi\n");
  writeFileSync(path.join(skillDir, "scripts", "tool.mjs"), "#!/usr/bin/env node\nconsole.log(1)\n");
  writeFileSync(path.join(skillDir, "scripts", "run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(path.join(skillDir, "scripts", "run.sh"), 0o755);
  writeFileSync(path.join(skillDir, "scripts", "data.csv"), "a\n");
  const skill = { name: "demo", dir: skillDir, allowedTools: [] };
  return { skill, skillDir, workspaceDir };
}

describe("planCommand", () => {
  it("runs an executable script directly, resolved in the skill folder", () => {
    const { skill, skillDir, workspaceDir } = setup();
    const checked = planCommand(
      { command: "scripts/run.sh --x", mode: "skill", skill, loadedSkills: [], workspaceDir },
      policy,
    );
    expect(checked).toMatchObject({
      ok: true,
      plan: { command: `"$SKILL_DIR"/scripts/run.sh --x`, display: "scripts/run.sh --x", cwd: workspaceDir },
    });
    if (checked.ok)
      expect(checked.plan.commands[0]).toMatchObject({
        program: path.join(skillDir, "scripts/run.sh"),
        kind: "script",
      });
  });

  it("runs a script without the executable bit through its #! line or its extension", () => {
    const { skill, skillDir, workspaceDir } = setup();
    const viaShebang = planCommand(
      { command: "scripts/tool.mjs", mode: "skill", skill, loadedSkills: [], workspaceDir },
      policy,
    );
    expect(viaShebang).toMatchObject({ ok: true, plan: { command: `node "$SKILL_DIR"/scripts/tool.mjs` } });
    expect(resolveExecutable("node")).toBeDefined();
    if (viaShebang.ok) expect(viaShebang.plan.commands[0]?.program).toBe(path.join(skillDir, "scripts/tool.mjs"));
    const viaExtension = planCommand(
      { command: "scripts/no-exec.sh", mode: "skill", skill, loadedSkills: [], workspaceDir },
      policy,
    );
    expect(viaExtension).toMatchObject({ ok: true, plan: { command: `sh "$SKILL_DIR"/scripts/no-exec.sh` } });
  });

  it("points a scripts/ argument at the skill folder when the workspace has no such file", () => {
    const { skill, skillDir, workspaceDir } = setup();
    const checked = planCommand(
      { command: "cat scripts/data.csv", mode: "skill", skill, loadedSkills: [], workspaceDir },
      policy,
    );
    expect(checked).toMatchObject({
      ok: true,
      plan: { command: `cat "$SKILL_DIR"/scripts/data.csv`, programArgv: ["cat", "scripts/data.csv"] },
    });
    // the same whatever the syntax around it
    const piped = planCommand(
      { command: "cat scripts/data.csv | head -1 && echo done", mode: "skill", skill, loadedSkills: [], workspaceDir },
      policy,
    );
    expect(piped).toMatchObject({
      ok: true,
      plan: { command: `cat "$SKILL_DIR"/scripts/data.csv | head -1 && echo done` },
    });
    expect(skillDir).toBeTruthy();
  });

  it("refuses a program whose resolved file is denied under another name", () => {
    const { workspaceDir } = setup();
    const bin = mkdtempSync(path.join(os.tmpdir(), "shell-plan-bin-"));
    symlinkSync(resolveExecutable("env")!, path.join(bin, "innocent"));
    const denyEnv = { ...policy, fixedPath: bin, deny: [parseCommandRule("env", "deny")!] };
    expect(
      planCommand({ command: "innocent id", mode: "shell", loadedSkills: [], workspaceDir }, denyEnv),
    ).toMatchObject({ ok: false, reason: "denied" });
    expect(
      planCommand({ command: "innocent id", mode: "shell", loadedSkills: [], workspaceDir }, { ...denyEnv, deny: [] }),
    ).toMatchObject({ ok: true });
  });
  it("an argument naming a workspace file whose name starts with dots stays inside (one containment check)", () => {
    const { workspaceDir } = setup();
    writeFileSync(path.join(workspaceDir, "..notes.txt"), "x\n");
    const inside = planCommand({ command: "cat ..notes.txt", mode: "shell", loadedSkills: [], workspaceDir }, policy);
    expect(inside).toMatchObject({ ok: true });
    const sibling = `${workspaceDir}-other/secret.txt`;
    const outside = planCommand({ command: `cat ${sibling}`, mode: "shell", loadedSkills: [], workspaceDir }, policy);
    expect(outside).toMatchObject({ ok: false, reason: "path-outside-workspace" });
  });

  it("syntax 'simple' runs one program with plain arguments only", () => {
    const { workspaceDir } = setup();
    const simple = { ...policy, syntax: "simple" as const };
    const plan = (command: string) => planCommand({ command, mode: "shell", loadedSkills: [], workspaceDir }, simple);
    expect(plan("ls -l")).toMatchObject({ ok: true });
    for (const command of ["ls | head", "ls > out.txt", "echo $(id)", "ls; ls", "echo $HOME"])
      expect(plan(command)).toMatchObject({ ok: false, reason: "shell-operator" });
  });

  it("a line may not assign a name the application sets for every command", () => {
    const { workspaceDir } = setup();
    const fixed = { ...policy, fixedEnvNames: new Set(["HTTPS_PROXY"]) };
    const plan = (command: string) => planCommand({ command, mode: "shell", loadedSkills: [], workspaceDir }, fixed);
    expect(plan("HTTPS_PROXY=http://evil; curl x")).toMatchObject({ ok: false, reason: "opaque-command" });
    expect(plan("read HTTPS_PROXY < in.txt")).toMatchObject({ ok: false, reason: "opaque-command" });
    expect(plan("proxy=x; echo $proxy")).toMatchObject({ ok: true });
  });
});

describe("git's configuration variables on a line", () => {
  const names = [
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_KEY_0",
    "GIT_CONFIG_VALUE_0",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_EXEC_PATH",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_ASKPASS",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "GIT_WORK_TREE",
  ];
  // even where the application lets tool calls set them, a line that sets one cannot be judged before running
  const permissive = { ...policy, envAllow: new Set([...names, "TZ"]) };

  it.each(names)("assigning %s is opaque, in every form", (name) => {
    const { workspaceDir } = setup();
    const plan = (command: string) =>
      planCommand({ command, mode: "shell", loadedSkills: [], workspaceDir }, permissive);
    for (const command of [
      `${name}=x git status`,
      `${name}=x; git status`,
      `export ${name}=x; git status`,
      `declare -x ${name}=x; git status`,
      `read ${name} < in.txt; git status`,
      `env ${name}=x git status`,
    ])
      expect(plan(command), command).toMatchObject({ ok: false, reason: "opaque-command" });
    expect(plan("git status")).toMatchObject({ ok: true });
  });
});

describe("paths as skill authors write them", () => {
  it("takes a workspace variable as cwd, and nothing else that leaves the workspace", () => {
    const { workspaceDir } = setup();
    mkdirSync(path.join(workspaceDir, "out", "sub"), { recursive: true });
    const plan = (cwd: string) =>
      planCommand({ command: "ls", mode: "shell", loadedSkills: [], workspaceDir, cwd }, policy);
    expect(plan("$OUTPUT_DIR")).toMatchObject({ ok: true, plan: { cwd: path.join(workspaceDir, "out") } });
    expect(plan("${OUT_DIR}/sub")).toMatchObject({ ok: true, plan: { cwd: path.join(workspaceDir, "out", "sub") } });
    expect(plan("$WORK_DIR")).toMatchObject({ ok: true, plan: { cwd: workspaceDir } });
    expect(plan("$OUTPUT_DIR/../..")).toMatchObject({ ok: false, reason: "path-traversal" });
    expect(plan("$HOME")).toMatchObject({ ok: false, reason: "not-found" });
  });

  it("checks a word joining workspace paths piece by piece", () => {
    const { workspaceDir } = setup();
    const plan = (command: string) => planCommand({ command, mode: "shell", loadedSkills: [], workspaceDir }, policy);
    expect(plan('echo "$WORK_DIR|$OUTPUT_DIR"')).toMatchObject({ ok: true });
    expect(plan('echo "$WORKSPACE:$OUT_DIR/a,$OUT_DIR/b"')).toMatchObject({ ok: true });
    expect(plan('cat "$WORK_DIR|/etc/passwd"')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
    expect(plan('cat "/etc/passwd|$WORK_DIR"')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
    expect(plan('cat "/dev/null|$WORK_DIR"')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
    expect(plan('mkdir -p "$WORK_DIR|.."')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
    // once an entry named like the joined word exists beside the workspace, no joined word reaches through it
    mkdirSync(`${workspaceDir}|l`);
    expect(plan('echo x > "$WORK_DIR|l/new"')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
    expect(plan('echo "$WORK_DIR|l"')).toMatchObject({ ok: false, reason: "path-outside-workspace" });
  });

  it("resolves relative paths into the skill's folders and refuses writing there", () => {
    const { skill, skillDir, workspaceDir } = setup();
    mkdirSync(path.join(skillDir, "references"));
    writeFileSync(path.join(skillDir, "references", "a.md"), "a\n");
    const plan = (command: string) =>
      planCommand({ command, mode: "skill", skill, loadedSkills: [], workspaceDir }, policy);
    expect(plan("cat references/a.md < references/a.md")).toMatchObject({
      ok: true,
      plan: { command: `cat "$SKILL_DIR"/references/a.md < "$SKILL_DIR"/references/a.md` },
    });
    expect(plan("cp references/a.md out.md")).toMatchObject({ ok: true });
    for (const command of [
      "echo x > references/a.md",
      `echo x >> ${path.join(skillDir, "references", "a.md")}`,
      "tee references/a.md",
      "cp out.md references/a.md",
      "sed -i s/a/b/ references/a.md",
      `touch ${path.join(skillDir, "new.txt")}`,
    ])
      expect(plan(command), command).toMatchObject({ ok: false, reason: "skill-folder-read-only" });
  });
});
