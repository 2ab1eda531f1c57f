import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bubblewrapWorks } from "../../../../test/security/attack-harness.js";

const here = path.dirname(fileURLToPath(import.meta.url));
// under CI a missing sandbox fails the bubblewrap half rather than skipping it
const canSandbox = bubblewrapWorks() || process.env.CI === "true";

/**
 * An agent process started the way a supervisor may start one: with descriptors open beyond stdin, stdout and stderr
 * and not close-on-exec (here fd 3, a pipe, and fd 4, the test's own log file). It runs `ls /proc/self/fd` through
 * each executor and each way a command starts (through an armed launcher where the host has cgroups, directly with
 * limits and no cgroup, with no limits at all) and prints what each command saw.
 */
async function listingsInAgent(executors: string[]): Promise<Record<string, string[]>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shell-inherited-"));
  const script = path.join(dir, "agent.mts");
  const modules = ["bubblewrap-executor", "local-executor", "command-limits"].map((name) =>
    JSON.stringify(path.join(here, `${name}.ts`)),
  );
  writeFileSync(
    script,
    [
      `import { createBubblewrapExecutor } from ${modules[0]};`,
      `import { createLocalExecutor } from ${modules[1]};`,
      `import { resolveLimits } from ${modules[2]};`,
      'import { mkdtempSync } from "node:fs";',
      'import os from "node:os";',
      'import path from "node:path";',
      "const make = { bubblewrap: createBubblewrapExecutor, local: createLocalExecutor };",
      "const starts = {",
      "  'armed or cgroup': resolveLimits(undefined),",
      "  'limits, no cgroup': resolveLimits({ cgroup: false }),",
      "  'no limits': undefined,",
      "};",
      "const seen = {};",
      `for (const name of ${JSON.stringify(executors)}) {`,
      "  for (const [start, limits] of Object.entries(starts)) {",
      "    const executor = make[name]({ limits });",
      "    // as after a model call; not needed for the check: a command that finds no launcher ready starts directly, through the same bash",
      "    await new Promise((resolve) => setTimeout(resolve, 300));",
      '    const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-inherited-ws-"));',
      "    const result = await executor.run({",
      '      argv: ["/bin/ls", "/proc/self/fd"], cwd: workspaceDir, workspaceDir, env: {}, timeoutMs: 30_000,',
      "      killGraceMs: 500, maxOutputBytes: 16_384, killAfterOutputBytes: 1 << 20, runId: `inherited-${name}-${start}`,",
      "    });",
      "    seen[`${name}, ${start}`] = result.exitCode === 0 ? result.stdout.trim().split(/\\s+/) : [result.stderr];",
      "  }",
      "}",
      "console.log(JSON.stringify(seen));",
    ].join("\n"),
  );
  const log = path.join(dir, "held-open.log");
  writeFileSync(log, "");
  const { openSync } = await import("node:fs");
  const held = openSync(log, "a");
  const child = spawn(process.execPath, ["--conditions=@skillgraph/source", "--import", "tsx", script], {
    cwd: path.resolve(here, "../../../.."),
    stdio: ["ignore", "pipe", "inherit", "pipe", held],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  expect(code).toBe(0);
  return JSON.parse(output.trim().split("\n").pop() as string) as Record<string, string[]>;
}

describe.skipIf(process.platform !== "linux")("descriptors the agent process inherited", () => {
  it("reach no command: each sees stdin, stdout, stderr and the listing's own descriptor only", async () => {
    const seen = await listingsInAgent(canSandbox ? ["bubblewrap", "local"] : ["local"]);
    expect(Object.keys(seen)).toHaveLength(canSandbox ? 6 : 3);
    for (const [start, listing] of Object.entries(seen))
      expect({ start, listing }).toEqual({ start, listing: ["0", "1", "2", "3"] });
  }, 60_000);
});
