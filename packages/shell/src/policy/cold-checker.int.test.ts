import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { PLAN_TIME_BOX_MS } from "../command/plan-budget.js";

// The time box of a line counts this thread's CPU, and the first line a process checks also pays for compiling the
// checker (tree-sitter's code and ours). On a slow machine that alone passed the box, and the first command of a
// process was refused as "too long to check". A fresh process run with `--print-bytecode` (every function pays a
// large cost the first time it runs, and none after, as compiling does) stands for a machine many times slower.

const here = path.dirname(fileURLToPath(import.meta.url));

it.each(["plan", "walk"])(
  "the first line a process checks is not refused for the cost of compiling the checker (%s)",
  async (entry) => {
    const root = mkdtempSync(path.join(os.tmpdir(), "shell-cold-checker-"));
    const skillDir = path.join(root, "skill");
    mkdirSync(path.join(skillDir, "scripts"), { recursive: true });
    mkdirSync(path.join(root, "ws"));
    writeFileSync(path.join(skillDir, "scripts", "run.sh"), "#!/bin/sh\necho run\n");
    chmodSync(path.join(skillDir, "scripts", "run.sh"), 0o755);
    const resultFile = path.join(root, "result.json");
    const script = path.join(root, "first-plan.mts");
    const source = (file: string) => JSON.stringify(path.join(here, "..", file));
    writeFileSync(
      script,
      [
        `import { writeFileSync } from "node:fs";`,
        `import { loadBashParser } from ${source("command/bash-parser.ts")};`,
        `import { threadCpuMicros } from ${source("command/thread-cpu-time.ts")};`,
        `import { planCommand } from ${source("policy/plan-command.ts")};`,
        `import { walkShellLine } from ${source("command/walk-shell-line.ts")};`,
        `await loadBashParser();`,
        `const policy = { deny: [], envAllow: new Set(), fixedPath: "/usr/bin:/bin", confinePaths: true,`,
        `  readablePaths: [], syntax: "full", opaqueNeedsApproval: false };`,
        `const skill = { name: "demo", dir: ${JSON.stringify(skillDir)}, allowedTools: [] };`,
        `const input = { command: "scripts/run.sh --x | head -1 > out.txt", mode: "skill", skill, loadedSkills: [],`,
        `  workspaceDir: ${JSON.stringify(path.join(root, "ws"))} };`,
        `const started = threadCpuMicros();`,
        entry === "plan"
          ? `const first = planCommand(input, policy);`
          : `const walked = walkShellLine(input.command, {}); const first = { ok: walked.commands.length === 2, problems: walked.problems };`,
        `const firstMs = (threadCpuMicros() - started) / 1000;`,
        `writeFileSync(${JSON.stringify(resultFile)}, JSON.stringify({ first, firstMs }));`,
      ].join("\n"),
    );
    const child = spawn(
      process.execPath,
      ["--print-bytecode", "--conditions=@skillgraph/source", "--import", "tsx", script],
      { cwd: path.resolve(here, "../../../.."), stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, stderr).toBe(0);
    const { first, firstMs } = JSON.parse(readFileSync(resultFile, "utf8")) as {
      first: { ok: boolean; message?: string };
      firstMs: number;
    };
    // the simulation bites: the first check (compiling included) took longer than the time box
    expect(firstMs).toBeGreaterThan(PLAN_TIME_BOX_MS);
    expect(first).toMatchObject({ ok: true });
  },
  120_000,
);
