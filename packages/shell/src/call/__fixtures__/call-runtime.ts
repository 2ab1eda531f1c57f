// Real components for the call stages' tests: a registry over a temp folder of skills, the shell's own runtime built
// from its options (the real policy, the local executor, a temp workspace root). Each test hands a stage only the part
// of this runtime the stage declares it reads.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSkillRegistry, skillsFromDirectory, type SkillRegistry } from "@skillgraph/core";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import type { ShellHookOptions } from "../../options/shell-hook-options.js";
import { createShellRuntime } from "../../runtime/create-shell-runtime.js";
import type { ShellRuntime } from "../../runtime/shell-runtime.js";
import { loadBashParser } from "../../command/bash-parser.js";
import type { ExecutionResult } from "../../executor/executor-types.js";
import type { StagedCall } from "../call-types.js";
import type { CommandCallInput } from "../command-call-input.js";
import { planCall } from "../plan-call.js";
import { stageCall } from "../stage-call.js";
import { validateCall } from "../validate-call.js";

/** The skills every fixture holds: one with a script, one that needs a program this machine lacks. */
const SKILLS = {
  "report/SKILL.md": skillMd("report", "Builds a report from a CSV file."),
  "report/scripts/build.sh": '#!/bin/sh\nprintf "built\\n" > out/report.txt\n',
  "needs-pandoc/SKILL.md":
    "---\nname: needs-pandoc\ndescription: Converts documents.\ncompatibility: Requires pandoc\n---\n\n# needs-pandoc\n",
  "needs-pandoc/scripts/convert.sh": "#!/bin/sh\npandoc \"$@\"\n",
};

/** A runtime over real components, its skills registry and folders; `dispose` removes what it made. */
export interface CallRuntime {
  runtime: ShellRuntime;
  registry: SkillRegistry;
  skillsDir: string;
  workspaceRoot: string;
  dispose(): Promise<void>;
}

/** Builds the runtime the shell hook would build from `options` (local executor, a temp workspace root). */
export async function callRuntime(options: Partial<ShellHookOptions> = {}): Promise<CallRuntime> {
  const skillsDir = writeTree(SKILLS, "skillgraph-call-skills-");
  for (const script of ["report/scripts/build.sh", "needs-pandoc/scripts/convert.sh"])
    chmodSync(path.join(skillsDir, script), 0o755);
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)], snapshot: false });
  const workspaceRoot = mkdtempSync(path.join(os.tmpdir(), "skillgraph-call-ws-"));
  const runtime = createShellRuntime({ skills: registry, executor: "local", workspaceRoot, ...options });
  return {
    runtime,
    registry,
    skillsDir,
    workspaceRoot,
    async dispose() {
      await runtime.services.workspaces.removeAll();
      await registry.close();
      rmSync(skillsDir, { recursive: true, force: true });
      rmSync(workspaceRoot, { recursive: true, force: true });
    },
  };
}

/** A shell call's input. */
export function shellInput(command: string, extra: Partial<CommandCallInput> = {}): CommandCallInput {
  return { tool: "shell", command, ...extra };
}

/** A run_skill_script call's input. */
export function scriptInput(skill: string, command: string, extra: Partial<CommandCallInput> = {}): CommandCallInput {
  return { tool: "run_skill_script", skill, command, ...extra };
}

/** A call taken through the validate, plan and stage stages of the whole runtime (what the later stages start from). */
export async function stagedCall(
  runtime: ShellRuntime,
  input: CommandCallInput,
  threadId = "t1",
): Promise<StagedCall> {
  await loadBashParser();
  const validated = validateCall(runtime, input, { configurable: { thread_id: threadId } }, threadId);
  if ("ok" in validated) throw new Error(validated.message);
  const planned = await planCall(runtime, validated);
  if ("ok" in planned) throw new Error(planned.message);
  const staged = await stageCall(runtime, planned);
  if ("ok" in staged) throw new Error(staged.message);
  return staged;
}

/** The result of a command that ended with `exitCode` (what the executor reports, nothing else set). */
export function finished(exitCode: number): ExecutionResult {
  return {
    exitCode,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    outputLimitExceeded: false,
    killed: false,
    durationMs: 1,
  };
}
