// What exec enforcement costs per call under bubblewrap: `true` through the executor without and with it (the default
// deny list stubbed, exec-guard's Landlock + noexec + seccomp set up), alternated call by call so a change in the
// machine's load falls on both alike. Also a line that starts 100 programs, for the cost per program start, and the
// argument-level rules (`git push` denied): a call whose line starts no gated program, and one that starts `git` once
// (through the gate, the broker and a fresh sandbox); and an allow list (only its programs' files may run), with a
// program admitted by its arguments (`git --version`) started once through the broker.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBubblewrapExecutor } from "../packages/shell/src/executor/bubblewrap-executor.js";
import { deniedProgramNames } from "../packages/shell/src/executor/denied-programs.js";
import type { CommandExecutor, ExecutionRequest } from "../packages/shell/src/executor/executor-types.js";
import { commandRules } from "../packages/shell/src/policy/policy-options.js";
import { DEFAULT_DENIED_PROGRAMS } from "../packages/shell/src/policy/command-policy.js";
import { execAllowList } from "../packages/shell/src/policy/exec-time-allow.js";
import { execTimeRules, type ExecTimeRules } from "../packages/shell/src/policy/exec-time-rules.js";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Per-call cost of exec enforcement, or undefined (with the reason printed) where it cannot be set up. */
export async function execEnforcementCost(runs: number): Promise<Record<string, unknown> | undefined> {
  let on: CommandExecutor;
  try {
    on = createBubblewrapExecutor({ execEnforcement: true });
  } catch (error) {
    console.log(`exec enforcement: not available here (${(error as Error).message})`);
    return undefined;
  }
  const off = createBubblewrapExecutor({});
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "exec-enforcement-bench-"));
  const deniedPrograms = deniedProgramNames({ deny: commandRules("deny", DEFAULT_DENIED_PROGRAMS) });
  const gitRules = execTimeRules({
    policy: { deny: commandRules("deny", [...DEFAULT_DENIED_PROGRAMS, "git push"]) },
    approvalRules: [],
    approved: [],
    tool: "shell",
    sandboxed: true,
  });
  // an allow list of a dozen programs, one of them (git) admitted only with some arguments: Landlock on single files,
  // the loader shim, and git's starts through the gate and the broker
  const allowRules = execTimeRules({
    policy: { deny: commandRules("deny", DEFAULT_DENIED_PROGRAMS) },
    approvalRules: [],
    approved: [],
    tool: "shell",
    sandboxed: true,
    allow: execAllowList(
      {
        allow: commandRules("allow", [
          "true",
          "seq",
          "cat",
          "grep",
          "sed",
          "awk",
          "sort",
          "head",
          "tail",
          "wc",
          "python3",
          "git --version",
        ]),
      },
      [],
    ),
  });
  const request = (shellCommand: string, execRules?: ExecTimeRules): ExecutionRequest => ({
    argv: [],
    shellCommand,
    cwd: workspaceDir,
    workspaceDir,
    deniedPrograms,
    ...(execRules ? { execRules } : {}),
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 1_000,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
  });
  const results: Record<string, unknown> = { deniedPrograms: deniedPrograms.length };
  for (const [label, line, count, rules] of [
    ["true", "true", runs, undefined],
    ["100 program starts", "for i in $(seq 100); do /usr/bin/true; done", Math.max(5, Math.round(runs / 4)), undefined],
    ["true, git push denied at exec time", "true", runs, gitRules],
    ["git --version through the broker", "git --version", runs, gitRules],
    ["true, allow list of 12 programs", "true", runs, allowRules],
    [
      "100 program starts, allow list",
      "for i in $(seq 100); do /usr/bin/true; done",
      Math.max(5, Math.round(runs / 4)),
      allowRules,
    ],
    ["git --version, allowed by arguments (broker)", "git --version", runs, allowRules],
  ] as const) {
    const offSamples: number[] = [];
    const onSamples: number[] = [];
    for (let index = 0; index < count + 3; index += 1) {
      for (const [executor, samples] of [
        [off, offSamples],
        [on, onSamples],
      ] as const) {
        const started = performance.now();
        const result = await executor.run(request(line, executor === on ? rules : undefined));
        if (result.exitCode !== 0) throw new Error(`exec enforcement bench: '${line}' failed: ${result.stderr}`);
        if (index >= 3) samples.push(performance.now() - started);
      }
    }
    const entry = {
      offMs: round(median(offSamples)),
      onMs: round(median(onSamples)),
      extraMs: round(median(onSamples) - median(offSamples)),
      runs: count,
    };
    results[label] = entry;
    console.log(
      `exec enforcement (bubblewrap, ${label}): off ${entry.offMs} ms, on ${entry.onMs} ms, +${entry.extraMs} ms at p50 (n=${count}, alternated)`,
    );
  }
  return results;
}
