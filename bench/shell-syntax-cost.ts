// Parse-and-check cost per call on the corpus's command lines: the bash grammar (tree-sitter-bash in WASM), the walk
// of every command, and the policy checks with and without the file system; beside the strict word splitter that
// refused every line with shell syntax before.
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadBashParser, withBashTree } from "../packages/shell/src/command/bash-parser.js";
import { parseShellWords } from "../packages/shell/src/command/parse-shell-words.js";
import { walkShellLine } from "../packages/shell/src/command/walk-shell-line.js";
import { DEFAULT_DENIED_PROGRAMS, type CommandPolicy } from "../packages/shell/src/policy/command-policy.js";
import { parseCommandRule } from "../packages/shell/src/policy/command-rules.js";
import { planCommand, preflightCommand } from "../packages/shell/src/policy/plan-command.js";
import { corpusCommandLines } from "../test/support/corpus-command-lines.js";
import { CORPUS_AVAILABLE } from "../test/support/shared-paths.js";

const round = (value: number) => Math.round(value * 1000) / 1000;

function stats(samples: number[]): { medianMs: number; p95Ms: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
  return { medianMs: round(at(0.5)), p95Ms: round(at(0.95)), n: sorted.length };
}

/** Per-line cost of `step` over all lines, repeated `rounds` times (each sample one line, one call). */
function measure(label: string, lines: readonly string[], rounds: number, step: (line: string) => unknown) {
  for (const line of lines) step(line); // warm-up
  const samples: number[] = [];
  for (let pass = 0; pass < rounds; pass += 1) {
    for (const line of lines) {
      const started = performance.now();
      step(line);
      samples.push(performance.now() - started);
    }
  }
  const result = stats(samples);
  console.log(
    `${label.padEnd(60)} median ${result.medianMs.toFixed(3)} ms   p95 ${result.p95Ms.toFixed(3)} ms   (n=${result.n})`,
  );
  return result;
}

/** Runs the corpus measurements; returns them for the results file (undefined without the corpus). */
export async function shellSyntaxCost(rounds: number): Promise<Record<string, unknown> | undefined> {
  if (!CORPUS_AVAILABLE) {
    console.log("corpus not found (../shared/corpus or $SKILLGRAPH_SHARED): parse-and-check cost skipped");
    return undefined;
  }
  const lines = corpusCommandLines().lines.map((entry) => entry.line);
  const started = performance.now();
  await loadBashParser();
  const loadMs = round(performance.now() - started);
  console.log(`bash grammar load (once per process): ${loadMs} ms`);
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-syntax-bench-"));
  mkdirSync(path.join(workspaceDir, "out"));
  const policy: CommandPolicy = {
    deny: DEFAULT_DENIED_PROGRAMS.map((name) => parseCommandRule(name, "deny", { prefix: true })!),
    envAllow: new Set(["TZ"]),
    fixedPath: "/usr/local/bin:/usr/bin:/bin",
    confinePaths: true,
    readablePaths: ["/dev/null"],
    syntax: "full",
    opaqueNeedsApproval: false,
  };
  const input = (command: string) => ({ command, mode: "shell" as const, loadedSkills: [], workspaceDir });
  const known = { WORKSPACE: workspaceDir, OUT_DIR: path.join(workspaceDir, "out") };
  const accepted = lines.filter((line) => planCommand(input(line), policy).ok).length;
  const strictAccepted = lines.filter((line) => parseShellWords(line).ok).length;
  console.log(
    `corpus lines: ${lines.length}; passing every check now: ${accepted}; accepted by the strict splitter before: ${strictAccepted}`,
  );
  return {
    lines: lines.length,
    grammarLoadMs: loadMs,
    passingNow: accepted,
    acceptedByStrictSplitterBefore: strictAccepted,
    parseOnly: measure("tree-sitter parse only", lines, rounds, (line) => withBashTree(line, (root) => root.hasError)),
    parseAndWalk: measure("parse + walk every command", lines, rounds, (line) => walkShellLine(line, known)),
    preflight: measure("preflight (parse, walk, rules; no file system)", lines, rounds, (line) =>
      preflightCommand(input(line), policy),
    ),
    plan: measure("plan (all checks, with file system)", lines, rounds, (line) => planCommand(input(line), policy)),
    strictSplitterBefore: measure("before: strict word splitter (refused any syntax)", lines, rounds, (line) =>
      parseShellWords(line),
    ),
  };
}
