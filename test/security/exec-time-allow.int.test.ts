// The allow list (and skills' `Bash(...)` grants) must hold where programs start, whoever starts them. The static
// planner is not involved: the executor runs each line as given, as if the planner had let it through. `forbidden` is
// a test binary that creates /workspace/STARTED and is in no allow list; each line must never create it under exec
// enforcement with the allow list, and (the control, so no case passes by being broken) the same line creates it in
// the same sandbox without one.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createBubblewrapExecutor } from "../../packages/shell/src/executor/bubblewrap-executor.js";
import type { CommandExecutor, ExecutionRequest } from "../../packages/shell/src/executor/executor-types.js";
import type { CommandSkill } from "../../packages/shell/src/policy/command-check-types.js";
import { parseCommandRule, type CommandRule } from "../../packages/shell/src/policy/command-rules.js";
import { execAllowList } from "../../packages/shell/src/policy/exec-time-allow.js";
import { execTimeRules } from "../../packages/shell/src/policy/exec-time-rules.js";
import { compileApprovalRules } from "../../packages/shell/src/policy/approval-rules.js";
import { attackHarness, bubblewrapWorks } from "./attack-harness.js";
import {
  nestedLines,
  PROGRAM_CONSTRUCTS,
  SYNTAX_CONSTRUCTS,
  quote,
  type HidingConstruct,
} from "./exec-enforcement-cases.js";

const FORBIDDEN = "forbidden";
const MARKER = "STARTED";
const canSandbox = bubblewrapWorks();

/** What the hiding lines themselves use: every program of the constructs, never `forbidden`. */
const WRAPPERS = ["cat", "git", "make", "find", "xargs", "timeout", "awk", "python3", "perl", "cp", "chmod"];

let toolsDir = "";
let enforced: CommandExecutor;

interface Allow {
  /** The application's allow list (undefined: none, so nothing is enforced for it). */
  allow?: string[];
  /** The call's skill, with its `allowed-tools`. */
  skill?: { dir: string; allowedTools: string[] };
  deny?: string[];
}

function request(line: string, rules: Allow | undefined, workspaceDir = newWorkspace()): ExecutionRequest {
  const skill: CommandSkill | undefined = rules?.skill
    ? { name: "s", dir: rules.skill.dir, allowedTools: rules.skill.allowedTools }
    : undefined;
  const allow = rules?.allow?.map((rule) => parseCommandRule(rule, "allow") as CommandRule);
  return {
    argv: [],
    shellCommand: line,
    searchPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
    cwd: workspaceDir,
    workspaceDir,
    ...(skill ? { skillDir: skill.dir, skillName: skill.name } : {}),
    execRules: execTimeRules({
      policy: {
        deny: (rules?.deny ?? []).map((rule) => parseCommandRule(rule, "deny", { prefix: true }) as CommandRule),
      },
      approvalRules: compileApprovalRules([]),
      approved: [],
      tool: "shell",
      sandboxed: true,
      allow: rules ? execAllowList(allow ? { allow } : {}, skill ? [skill] : []) : undefined,
    }),
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 24,
    runId: randomUUID(),
  };
}

function newWorkspace(): string {
  return mkdtempSync(path.join(os.tmpdir(), "exec-allow-ws-"));
}

async function run(line: string, rules: Allow | undefined, workspaceDir?: string) {
  const job = request(line, rules, workspaceDir);
  const result = await enforced.run(job);
  return { started: existsSync(path.join(job.workspaceDir, MARKER)), result, workspace: job.workspaceDir };
}

/** Whether the line starts `forbidden` without an allow list (the control) and with one that leaves it out. */
async function startsWithoutAndWith(line: string) {
  const control = await run(line, undefined);
  const guarded = await run(line, { allow: WRAPPERS });
  const detail = `${line}\n-- without the allow list, stderr:\n${control.result.stderr}\n-- with, stderr:\n${guarded.result.stderr}`;
  return { outcome: { without: control.started, with: guarded.started }, detail };
}

/** The line starts `forbidden` without an allow list (the control) and never with one that leaves it out. */
async function expectStoppedOnlyByTheAllowList(line: string): Promise<void> {
  const { outcome, detail } = await startsWithoutAndWith(line);
  expect(outcome, detail).toEqual({ without: true, with: false });
}

/** The loader run as a program, by every path it has: each would load `forbidden` itself. */
const LOADER_TRICKS: readonly HidingConstruct[] = [
  { nodeType: "ld.so by its /lib64 name", wrap: (c) => `/lib64/ld-linux-x86-64.so.2 "$(command -v ${c})"` },
  {
    nodeType: "ld.so by its real path",
    wrap: (c) => `"$(readlink -f /lib64/ld-linux-x86-64.so.2)" "$(command -v ${c})"`,
  },
  {
    nodeType: "python3 execv of ld.so",
    wrap: (c) =>
      `python3 -c ${quote(`import os, shutil; os.execv("/lib64/ld-linux-x86-64.so.2", ["ld.so", shutil.which("${c}")])`)}`,
  },
];

describe.skipIf(!canSandbox)("the allow list where programs start (bubblewrap, planner not involved)", () => {
  beforeAll(() => {
    // not under /tmp: the sandbox has a /tmp of its own, which would hide it
    toolsDir = mkdtempSync("/var/tmp/exec-allow-tools-");
    const source = path.join(toolsDir, "forbidden.c");
    writeFileSync(source, `#include <fcntl.h>\nint main(void) { return creat("/workspace/${MARKER}", 0644) < 0; }\n`);
    execFileSync("gcc", ["-O2", "-o", path.join(toolsDir, FORBIDDEN), source]);
    enforced = createBubblewrapExecutor({ execEnforcement: true, readOnlyPaths: [toolsDir] });
  });

  it("runs allowed programs through pipes, lists and redirections, and refuses the rest where they start", async () => {
    const line = "printf 'b\\na\\n' > in && sort < in | tr a-z A-Z > out && cat out && wc -l < out";
    const allowed = await run(line, { allow: ["sort", "tr", "cat", "wc"] });
    expect(allowed.result.stdout, allowed.result.stderr).toBe("A\nB\n2\n");
    expect(allowed.result.exitCode).toBe(0);
    const refused = await run(`${FORBIDDEN}; echo status=$?`, { allow: ["cat"] });
    expect(refused.started).toBe(false);
    expect(refused.result.stdout).toBe("status=126\n");
    const control = await run(FORBIDDEN, { allow: ["cat", FORBIDDEN] });
    expect(control.started, control.result.stderr).toBe(true);
  });

  it("runs a line on a pseudo-terminal under an allow list (util-linux script is the line's own program)", async () => {
    const job = request(`[ -t 1 ] && echo on-a-terminal; ${FORBIDDEN}; echo status=$?`, { allow: ["cat"] });
    const result = await enforced.run({ ...job, pty: true });
    expect(result.stdout, result.stderr).toMatch(/on-a-terminal\r?\n(.*\r?\n)?status=126/);
    expect(existsSync(path.join(job.workspaceDir, MARKER))).toBe(false);
  });

  it("changes nothing without an allow list, or with one that admits every command", async () => {
    expect((await run(FORBIDDEN, undefined)).started).toBe(true);
    expect((await run(FORBIDDEN, { allow: ["*"] })).started).toBe(true);
    const skillDir = mkdtempSync(path.join(os.tmpdir(), "exec-allow-skill-"));
    expect((await run(FORBIDDEN, { allow: [], skill: { dir: skillDir, allowedTools: ["Bash"] } })).started).toBe(true);
  });

  for (const construct of [...SYNTAX_CONSTRUCTS, ...PROGRAM_CONSTRUCTS, ...LOADER_TRICKS])
    it(`holds through ${construct.nodeType}`, async () => {
      const { outcome, detail } = await startsWithoutAndWith(construct.wrap(FORBIDDEN));
      expect(outcome, detail).toEqual({ without: true, with: false });
    });

  it("holds for nested constructs (fast-check, 25 lines, each with its control)", async () => {
    await fc.assert(
      fc.asyncProperty(nestedLines([...SYNTAX_CONSTRUCTS, ...PROGRAM_CONSTRUCTS], FORBIDDEN), (line) =>
        expectStoppedOnlyByTheAllowList(line),
      ),
      { numRuns: 25 },
    );
  });

  it("shows the real loader behind the shim only to be mapped, never run", async () => {
    const line = `/.skillgraph-loader/ld.so "$(command -v ${FORBIDDEN})"; echo status=$?`;
    const guarded = await run(line, { allow: ["cat"] });
    expect(guarded.started).toBe(false);
    expect(guarded.result.stdout).toBe("status=126\n");
    expect(guarded.result.stderr).toMatch(/Permission denied/);
    const shim = await run(`/lib64/ld-linux-x86-64.so.2 --list /usr/bin/cat; echo status=$?`, { allow: ["cat"] });
    expect(shim.result.stdout).toBe("status=126\n");
    expect(shim.result.stderr).toContain("the dynamic loader does not run as a program here");
  });

  it("runs a skill's own script whose interpreter is allowed; what the script starts is judged too", async () => {
    const skillDir = mkdtempSync(path.join(os.tmpdir(), "exec-allow-skill-"));
    mkdirSync(path.join(skillDir, "scripts"));
    const script = path.join(skillDir, "scripts", "report.py");
    writeFileSync(
      script,
      `#!/usr/bin/env python3\nimport subprocess, sys\nprint("report ran")\nif sys.argv[1:] == ["spawn"]:\n    subprocess.run(["${FORBIDDEN}"])\n`,
    );
    chmodSync(script, 0o755);
    const skill = { dir: skillDir, allowedTools: ["Bash(python3:*)"] };
    const ran = await run(`"$SKILL_DIR"/scripts/report.py && python3 "$SKILL_DIR"/scripts/report.py`, {
      allow: [],
      skill,
    });
    expect(ran.result.stdout, ran.result.stderr).toBe("report ran\nreport ran\n");
    const spawned = await run(`"$SKILL_DIR"/scripts/report.py spawn`, { allow: [], skill });
    expect(spawned.started, spawned.result.stderr).toBe(false);
    expect(spawned.result.stderr).toMatch(/Permission denied/);
    const control = await run(`"$SKILL_DIR"/scripts/report.py spawn`, {
      allow: [],
      skill: { dir: skillDir, allowedTools: ["Bash(python3:*)", `Bash(${FORBIDDEN})`] },
    });
    expect(control.started, control.result.stderr).toBe(true);
  });

  it("runs an allowed git's `git status` while a filter driver naming a program outside the list is refused", async () => {
    const setup = "git init -q r && cd r && echo a > f && git add f";
    const status = await run(`${setup} && git status --short`, { allow: ["git"] });
    expect(status.result.stdout, status.result.stderr).toBe("A  f\n");
    const driver = `${setup} && git config filter.x.clean ${quote(`${FORBIDDEN}; cat`)} && echo '* filter=x' > .gitattributes && echo b > g && git add g; git status --short`;
    const control = await run(driver, { allow: ["git", "cat", FORBIDDEN] });
    expect(control.started, control.result.stderr).toBe(true);
    const guarded = await run(driver, { allow: ["git", "cat"] });
    expect(guarded.started, guarded.result.stderr).toBe(false);
  });

  it("admits `git status` under a grant `Bash(git status:*)`, and refuses `git push` where it starts", async () => {
    const workspace = newWorkspace();
    const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, stdio: "ignore" });
    git("init", "-q", "--bare", "remote.git");
    git("init", "-q", "r");
    git("-C", "r", "-c", "user.email=a@b", "-c", "user.name=n", "commit", "-q", "--allow-empty", "-m", "m");
    git("-C", "r", "remote", "add", "origin", "../remote.git");
    const skillDir = mkdtempSync(path.join(os.tmpdir(), "exec-allow-skill-"));
    const grant = { allow: [], skill: { dir: skillDir, allowedTools: ["Read", "Bash(git status:*)"] } };
    const pushed = () =>
      execFileSync("git", ["-C", path.join(workspace, "remote.git"), "branch", "--list", "main"], {
        encoding: "utf8",
      }) !== "";
    const status = await run("cd r && git status --short --branch", grant, workspace);
    expect(status.result.stdout, status.result.stderr).toMatch(/^## /);
    expect(status.result.refusedStarts).toBeUndefined();
    const push = "cd r && git push -q origin HEAD:refs/heads/main";
    for (const line of [push, `bash -c ${quote(push)}`, `make -s -f /dev/stdin <<< $'all:\\n\\t${push}'`]) {
      const refused = await run(
        line,
        { ...grant, skill: { ...grant.skill, allowedTools: [...grant.skill.allowedTools, "Bash(make:*)"] } },
        workspace,
      );
      expect(pushed(), `${line}\n${refused.result.stderr}`).toBe(false);
      expect(refused.result.refusedStarts?.[0], `${line}\n${refused.result.stderr}`).toMatchObject({
        argv: ["git", "push", "-q", "origin", "HEAD:refs/heads/main"],
        reason: expect.stringContaining("not in the allow list") as string,
        needsApproval: false,
      });
    }
    // the control: without an allow list the same push reaches the remote (with `git push` granted too, git's own
    // starts, `git pack-objects`, `git receive-pack`, `git gc --auto`, would each need a grant: they are judged alike)
    const control = await run(push, undefined, workspace);
    expect(pushed(), control.result.stderr).toBe(true);
  });

  it("holds through the shell hook: the allow list and the loaded skills' grants reach the sandbox", async () => {
    for (const [execEnforcement, expected] of [
      [false, true],
      [true, false],
    ] as const) {
      // loaded skills grant `git status:*` and `python3 -m json.tool:*`; the application allows `echo`
      const harness = attackHarness("bubblewrap", {
        bubblewrap: { execEnforcement, readOnlyPaths: [toolsDir] },
        allow: ["echo"],
        fixedPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
      });
      // the planner sees the skill's own script; what it starts is decided where it starts
      const hidden = path.join(harness.skillDir, "scripts", "hidden.sh");
      writeFileSync(
        hidden,
        `#!/bin/sh\n${FORBIDDEN}\npython3 -c 'import subprocess; subprocess.run(["${FORBIDDEN}"])'\necho done\n`,
      );
      chmodSync(hidden, 0o755);
      const result = (await harness.call("run_skill_script", { skill: "attacker", command: "scripts/hidden.sh" })) as {
        stdout: string;
        refused_programs?: Array<{ argv: string[]; reason: string }>;
      };
      expect(result.stdout, JSON.stringify(result)).toContain("done");
      expect(existsSync(path.join(harness.workspace, MARKER)), `execEnforcement: ${execEnforcement}`).toBe(expected);
      if (execEnforcement)
        // python3 is granted with some arguments only, so its start reached the broker and is reported
        expect(result.refused_programs?.[0]?.argv.slice(0, 2), JSON.stringify(result)).toEqual(["python3", "-c"]);
      await harness.hook.dispose();
    }
  });
});
