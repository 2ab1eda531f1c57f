// Argument-level rules (`tool push` denied or needing approval while `tool status` runs) must hold where programs
// start, whoever starts them. The static planner is not involved: the executor runs each line as given, as if the
// planner had let it through. `tool` is a test binary that creates /workspace/PUSHED when its first argument is
// `push`; each line must never create it under exec enforcement with the rule, and (the control, so no case passes
// by being broken) the same line creates it in the same sandbox without the rule.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createBubblewrapExecutor } from "../../packages/shell/src/executor/bubblewrap-executor.js";
import type { CommandExecutor, ExecutionRequest } from "../../packages/shell/src/executor/executor-types.js";
import { compileApprovalRules } from "../../packages/shell/src/policy/approval-rules.js";
import { parseCommandRule, type CommandRule } from "../../packages/shell/src/policy/command-rules.js";
import { execTimeRules } from "../../packages/shell/src/policy/exec-time-rules.js";
import { bubblewrapWorks } from "./attack-harness.js";
import { nestedLines, PROGRAM_CONSTRUCTS, SYNTAX_CONSTRUCTS, quote } from "./exec-enforcement-cases.js";

const MARKER = "PUSHED";
const canSandbox = bubblewrapWorks();

let toolsDir = "";
let enforced: CommandExecutor;

interface Rules {
  deny?: string[];
  approval?: string[];
  approved?: string[][];
}

function request(line: string, rules: Rules | undefined): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "exec-argv-ws-"));
  return {
    argv: [],
    shellCommand: line,
    searchPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
    cwd: workspaceDir,
    workspaceDir,
    ...(rules
      ? {
          execRules: execTimeRules({
            policy: {
              deny: (rules.deny ?? []).map((rule) => parseCommandRule(rule, "deny", { prefix: true }) as CommandRule),
            },
            approvalRules: compileApprovalRules(rules.approval ?? []),
            approved: rules.approved ?? [],
            tool: "shell",
            sandboxed: true,
          }),
        }
      : {}),
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 24,
    runId: randomUUID(),
  };
}

async function run(line: string, rules: Rules | undefined) {
  const job = request(line, rules);
  const result = await enforced.run(job);
  return { pushed: existsSync(path.join(job.workspaceDir, MARKER)), result, workspace: job.workspaceDir };
}

/** Whether the line pushes without the rule (the control) and with it, and what each said. */
async function pushesWithoutAndWith(line: string, rules: Rules = { deny: ["tool push"] }) {
  const control = await run(line, undefined);
  const guarded = await run(line, rules);
  const detail = `${line}\n-- without the rule, stderr:\n${control.result.stderr}\n-- with, stderr:\n${guarded.result.stderr}`;
  return { outcome: { without: control.pushed, with: guarded.pushed }, detail };
}

/** The line pushes without the rule (the control) and never with it. */
async function expectStoppedOnlyByTheRule(line: string): Promise<void> {
  const { outcome, detail } = await pushesWithoutAndWith(line);
  expect(outcome, detail).toEqual({ without: true, with: false });
}

describe.skipIf(!canSandbox)("argument-level rules where programs start (bubblewrap, planner not involved)", () => {
  beforeAll(() => {
    // not under /tmp: the sandbox has a /tmp of its own, which would hide it
    toolsDir = mkdtempSync("/var/tmp/exec-argv-tools-");
    const source = path.join(toolsDir, "tool.c");
    writeFileSync(
      source,
      [
        "#include <fcntl.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "int main(int c, char **v) {",
        `  if (c > 1 && strcmp(v[1], "push") == 0) return creat("/workspace/${MARKER}", 0644) < 0;`,
        // `tool spawn CMD` runs CMD as its child (as git runs a driver): the child tries to reach its parent's file
        '  if (c > 2 && strcmp(v[1], "spawn") == 0) return system(v[2]) != 0;',
        '  puts("tool ran");',
        "  return 0;",
        "}",
        "",
      ].join("\n"),
    );
    execFileSync("gcc", ["-O2", "-o", path.join(toolsDir, "tool"), source]);
    enforced = createBubblewrapExecutor({ execEnforcement: true, readOnlyPaths: [toolsDir] });
  });

  it("runs what the rules allow, with its output, status and working folder, and refuses the rest with the reason", async () => {
    const allowed = await run("mkdir d && cd d && tool status && pwd && tool status <&- >&- 2>&- && echo closed-ok", {
      deny: ["tool push"],
    });
    expect(allowed.result.stdout).toBe("tool ran\n/workspace/d\nclosed-ok\n");
    expect(allowed.result.exitCode).toBe(0);
    const refused = await run("tool push origin; echo status=$?", { deny: ["tool push"] });
    expect(refused.pushed).toBe(false);
    expect(refused.result.stdout).toBe("status=126\n");
    expect(refused.result.stderr).toContain("'tool push origin' is denied by the rule 'tool push'");
    expect(refused.result.refusedStarts).toEqual([
      { argv: ["tool", "push", "origin"], reason: expect.stringContaining("denied") as string, needsApproval: false },
    ]);
  });

  it("asks for approval at the start unless that exact command was approved for the call", async () => {
    const asked = await run("tool push origin", { approval: ["tool push"] });
    expect(asked.pushed).toBe(false);
    expect(asked.result.refusedStarts?.[0]).toMatchObject({ argv: ["tool", "push", "origin"], needsApproval: true });
    const approved = await run("tool push origin", { approval: ["tool push"], approved: [["tool", "push", "origin"]] });
    expect(approved.pushed).toBe(true);
    const other = await run("bash -c 'tool push --force origin'", {
      approval: ["tool push"],
      approved: [["tool", "push", "origin"]],
    });
    expect(other.pushed).toBe(false);
  });

  // every construct that passes its inner command whole (`p=tool; "$p"` keeps only the program word)
  const constructs = [...SYNTAX_CONSTRUCTS, ...PROGRAM_CONSTRUCTS].filter(
    (construct) => construct.nodeType !== "PATH lookup by variable",
  );
  for (const construct of constructs)
    it(`holds through ${construct.nodeType}`, async () => {
      const { outcome, detail } = await pushesWithoutAndWith(construct.wrap("tool push"));
      expect(outcome, detail).toEqual({ without: true, with: false });
    });

  it("holds for nested constructs (fast-check, 25 lines, each with its control)", async () => {
    await fc.assert(fc.asyncProperty(nestedLines(constructs, "tool push"), expectStoppedOnlyByTheRule), {
      numRuns: 25,
    });
  });

  it("leaves a program it runs no way to its real file: /proc/PPID/exe, reading it, ld.so", async () => {
    const child = [
      "/proc/$PPID/exe push; echo exe=$? >&2",
      "cat /proc/$PPID/exe > c; chmod +x c; ./c push; echo copy=$? >&2",
      "/lib64/ld-linux-x86-64.so.2 /proc/$PPID/exe push; echo ldso=$? >&2",
      "cat /proc/$PPID/maps >&2; echo maps=$? >&2",
    ].join("; ");
    const line = `tool spawn ${quote(child)}`;
    const control = await run(line, undefined);
    expect(control.pushed, control.result.stderr).toBe(true);
    const guarded = await run(line, { deny: ["tool push"] });
    expect(guarded.pushed, guarded.result.stderr).toBe(false);
    expect(guarded.result.stderr).toMatch(/exe=126|Permission denied/);
  });

  it("denies `git push` whoever starts it: a filter driver, make, the dashed form, git -C, an alias; `git status` runs", async () => {
    const setup = [
      "git init -q --bare remote.git",
      "git init -q r && cd r",
      "git -c user.email=a@b -c user.name=n commit -q --allow-empty -m m",
      "git remote add origin ../remote.git",
    ].join(" && ");
    const push = "git push -q origin HEAD:refs/heads/main";
    const attempts = [
      push,
      "/usr/lib/git-core/git-push -q origin HEAD:refs/heads/main",
      "cd .. && git -C r push -q origin HEAD:refs/heads/main",
      "git config alias.p push && git p -q origin HEAD:refs/heads/main",
      `git config filter.x.clean ${quote(`${push}; cat`)} && echo '* filter=x' > .gitattributes && echo a > f && git add f`,
      `printf 'all:\\n\\t%s\\n' ${quote(push)} > Makefile && make -s`,
    ];
    const pushedTo = (workspace: string) =>
      execFileSync("git", ["-C", path.join(workspace, "remote.git"), "branch", "--list", "main"], {
        encoding: "utf8",
      }) !== "";
    for (const attempt of attempts) {
      const line = `${setup} && ${attempt}`;
      const control = request(line, undefined);
      const controlResult = await enforced.run(control);
      expect(pushedTo(control.workspaceDir), `control: ${attempt}\n${controlResult.stderr}`).toBe(true);
      const job = request(line, { deny: ["git push"] });
      const result = await enforced.run(job);
      expect(pushedTo(job.workspaceDir), `${attempt}\n${result.stderr}`).toBe(false);
      expect(result.refusedStarts?.length ?? 0, `${attempt}\n${result.stderr}`).toBeGreaterThan(0);
    }
    const status = await enforced.run(
      request(`${setup} && git status --short && git log --oneline | wc -l`, { deny: ["git push"] }),
    );
    expect(status.stdout.trim(), status.stderr).toBe("1");
  });
});
