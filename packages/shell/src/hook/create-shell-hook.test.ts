import { chmodSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/support/skill-tree.js";
import { loadBashParser } from "../command/bash-parser.js";
import { InvalidOptionsError, SkillgraphError } from "@skillgraph/core";
import { fixtureCatalog, fixtureSkill, prompterDir, reportBuilderDir } from "../__fixtures__/fixture-catalog.js";
import { createShellHook } from "./create-shell-hook.js";

const reportBuilder = fixtureSkill({ name: "report-builder", dir: reportBuilderDir, allowedTools: ["Bash(node:*)"] });
const prompter = fixtureSkill({ name: "prompter", dir: prompterDir });
const reader = fixtureSkill({ name: "reader", allowedTools: ["Read"] });
const catalog = fixtureCatalog([reportBuilder, prompter, reader]);

function optionError(options: Record<string, unknown>): InvalidOptionsError {
  try {
    createShellHook({ skills: catalog, executor: "local", ...options } as never);
  } catch (error) {
    if (error instanceof InvalidOptionsError) return error;
    throw error;
  }
  throw new Error("no error thrown");
}

describe("createShellHook options", () => {
  it.each([
    [{ skills: undefined }, "skills"],
    [{ allowShellSyntax: true }, "allowShellSyntax"],
    [{ shellSyntax: "posix" }, "shellSyntax"],
    [{ timeoutMs: -1 }, "timeoutMs"],
    [{ timeoutMs: 10_000, maxTimeoutMs: 5_000 }, "maxTimeoutMs"],
    [{ deny: ["rm; ls"] }, "deny[0]"],
    [{ fixedPath: "bin:/usr/bin" }, "fixedPath"],
    [{ workspaceRoot: "relative/dir" }, "workspaceRoot"],
    [{ alwaysVisible: ["rm_everything"] }, "alwaysVisible[0]"],
    [{ executor: "docker" }, "executor"],
    [{ requireApproval: [42] }, "requireApproval[0]"],
    [{ limits: { memoryBytes: "lots" } }, "limits.memoryBytes"],
    [{ environment: { set: { HOME: "/root" } } }, "environment.set.HOME"],
    [{ environment: { allow: ["TZ", "PATH"] } }, "environment.allow[1]"],
    [{ hostInputs: { data: "relative" } }, "hostInputs.data"],
    [{ artifacts: { maxBytes: 0 } }, "artifacts.maxBytes"],
    [{ artifacts: { quota: { maxVersionsPerThread: 0 } } }, "artifacts.quota.maxVersionsPerThread"],
    [{ sessions: { maxPerThread: 10_000 } }, "sessions.maxPerThread"],
    [{ skillEnvironments: { approve: "maybe" } }, "skillEnvironments.approve"],
    [{ outputFiles: { maxFiles: 1.5 } }, "outputFiles.maxFiles"],
  ])("rejects %j naming option %s", (options, option) => {
    expect(optionError(options).option).toBe(option);
  });

  it.each([
    [{ timeoutMs: 2 ** 31 }, "Invalid option 'timeoutMs': must be a positive integer no larger than 2147483647"],
    [
      { limits: { processes: 0 } },
      "Invalid option 'limits.processes': must be a positive integer no larger than 1000000",
    ],
    [{ limits: "lots" }, "Invalid option 'limits': must be false or an object"],
    [
      { environment: { allow: ["PATH"] } },
      "Invalid option 'environment.allow[0]': 'PATH' is not a valid name or is set by the runtime itself",
    ],
    [
      { alwaysVisible: ["rm_everything"] },
      "Invalid option 'alwaysVisible[0]': unknown tool 'rm_everything' (one of run_skill_script, shell, read_output, shell_session_write, shell_session_poll, shell_session_kill)",
    ],
    [
      { artifacts: { store: 42 } },
      "Invalid option 'artifacts.store': must be a LangGraph BaseStore or an ArtifactStore",
    ],
  ])("says what was wrong with %j", (options, message) => {
    expect(optionError(options).message).toBe(message);
  });

  it("fails with a clear error when bubblewrap is chosen but bwrap is missing", () => {
    let error: unknown;
    try {
      createShellHook({ skills: catalog, executor: "bubblewrap", bubblewrap: { bwrapPath: "/nonexistent/bwrap" } });
    } catch (caught) {
      error = caught;
    }
    expect(SkillgraphError.isInstance(error)).toBe(true);
    expect((error as SkillgraphError).code).toBe("bubblewrap-unavailable");
    expect((error as Error).message).toMatch(/bwrap not found or not executable at '\/nonexistent\/bwrap'/);
  });

  it("contributes a stable list of tools", () => {
    const hook = createShellHook({ skills: catalog, executor: "local" });
    expect(hook.tools.map((tool) => tool.name)).toEqual([
      "run_skill_script",
      "shell",
      "read_output",
      "shell_session_write",
      "shell_session_poll",
      "shell_session_kill",
    ]);
    expect(
      createShellHook({ skills: catalog, executor: "local", sessions: false }).tools.map((tool) => tool.name),
    ).toEqual(["run_skill_script", "shell", "read_output"]);
  });
});

describe("visibleTools", () => {
  const hook = createShellHook({ skills: catalog, executor: "local" });

  it("shows nothing while no loaded skill asks for the shell", () => {
    expect(hook.visibleTools({ loadedSkills: [] })).toEqual([]);
    expect(hook.visibleTools({ loadedSkills: [reader] })).toEqual([]);
  });

  it("shows run_skill_script for a skill with a scripts/ folder and shell for a Bash(...) grant", () => {
    expect(hook.visibleTools({ loadedSkills: [prompter] }).sort()).toEqual([
      "read_output",
      "run_skill_script",
      "shell_session_kill",
      "shell_session_poll",
      "shell_session_write",
    ]);
    expect(hook.visibleTools({ loadedSkills: [reportBuilder] })).toContain("shell");
  });

  it("shows run_skill_script for any folder of the skill but references/ and assets/, or an executable file", () => {
    const root = writeTree({
      "custom/custom-scripts/run.sh": "#!/bin/sh\n",
      "docs-only/references/a.md": "# a\n",
      "docs-only/assets/logo.txt": "logo\n",
      "docs-only/notes.txt": "not executable\n",
      "top/run.sh": "#!/bin/sh\n",
    });
    chmodSync(join(root, "top/run.sh"), 0o755);
    const shown = (dir: string) =>
      hook
        .visibleTools({ loadedSkills: [fixtureSkill({ name: "x", dir: join(root, dir) })] })
        .includes("run_skill_script");
    expect(shown("custom")).toBe(true);
    expect(shown("top")).toBe(true);
    expect(shown("docs-only")).toBe(false);
  });

  it("shows configured tools always", () => {
    expect(
      createShellHook({ skills: catalog, executor: "local", alwaysVisible: ["shell"], sessions: false }).visibleTools({
        loadedSkills: [],
      }),
    ).toEqual(["shell", "read_output"]);
  });
});

describe("authorize", () => {
  const hook = createShellHook({ skills: catalog, executor: "local", allow: ["ls"] });
  beforeAll(() => loadBashParser());

  it("refuses a skill's script before the skill was read, and allows it after", () => {
    const call = {
      toolName: "run_skill_script",
      args: { skill: "report-builder", command: "scripts/build-report.mjs in/a.csv" },
    };
    expect(hook.authorize!(call, { loadedSkills: [], threadId: "t" })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^skill-not-read/),
    });
    expect(hook.authorize!(call, { loadedSkills: [reportBuilder], threadId: "t" })).toEqual({ allowed: true });
  });

  it("allows a command granted by a loaded skill's allowed-tools only while that skill is loaded", () => {
    const call = { toolName: "shell", args: { command: "node --version" } };
    expect(hook.authorize!(call, { loadedSkills: [], threadId: "t" })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^not-allowed/),
    });
    expect(hook.authorize!(call, { loadedSkills: [reportBuilder], threadId: "t" })).toEqual({ allowed: true });
  });

  it("checks every command of a line and refuses denied programs before anything runs", () => {
    expect(hook.authorize!({ toolName: "shell", args: { command: "ls | sh" } }, { loadedSkills: [] })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^not-allowed: 'sh'/),
    });
    expect(hook.authorize!({ toolName: "shell", args: { command: "ls | ls -l" } }, { loadedSkills: [] })).toEqual({
      allowed: true,
    });
    expect(hook.authorize!({ toolName: "shell", args: { command: "ls 'a" } }, { loadedSkills: [] })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^shell-syntax/),
    });
    expect(hook.authorize!({ toolName: "shell", args: { command: "sudo ls" } }, { loadedSkills: [] })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^denied/),
    });
  });
});
