// scripts/progress.mjs --substep: a part of a step that runs as a process of its own below the step's command (the
// native build inside `pnpm install`) is announced, timed and ended as a step of its own, seen through /proc. Real
// child processes; the "native build" here is a shell whose command line carries the pattern.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

const progress = join(REPO_ROOT, "scripts", "progress.mjs");
const ABSENT = "native part: nothing to build";

/** Runs progress.mjs with a sub-step watching for `fake-native-build`; its progress lines (stderr) and exit status. */
function runStep(script: string) {
  const result = spawnSync(
    process.execPath,
    [
      progress,
      "--substep",
      "native part (the fake build)",
      "fake-native-build",
      ABSENT,
      "whole step (outer)",
      "bash",
      "-c",
      script,
    ],
    { encoding: "utf8", env: { ...process.env, SKILLGRAPH_PROGRESS_HEARTBEAT_MS: "500" } },
  );
  return { status: result.status, lines: result.stderr.split("\n").filter((line) => line.startsWith("skillgraph: ")) };
}

describe.skipIf(!existsSync("/proc/self/stat"))("progress.mjs --substep", () => {
  it("reports the part as its own step, in order, with its own time and heartbeats, and the step's share of it", () => {
    const { status, lines } = runStep('sleep 0.8; sh -c "sleep 2; : fake-native-build"; sleep 0.8');
    expect(status).toBe(0);
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const order = [
      at(/^skillgraph: whole step \(outer\)\.\.\.$/),
      at(/^skillgraph: native part \(the fake build\)\.\.\.$/),
      at(/^skillgraph: native part: done in \d+\.\d s$/),
      at(/^skillgraph: whole step: done in \d+\.\d s \(\d+\.\d s of it native part\)$/),
    ];
    expect(
      order.every((index) => index >= 0),
      lines.join("\n"),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const partSeconds = Number(/native part: done in (\d+\.\d) s/.exec(lines[order[2]!]!)![1]);
    expect(partSeconds).toBeGreaterThan(0);
    // While the part runs, the heartbeat names it (it is quiet for longer than the 0.5 s heartbeat).
    const during = lines.slice(order[1]! + 1, order[2]);
    expect(during.some((line) => line.includes("... still native part ("))).toBe(true);
    expect(during.some((line) => line.includes("... still whole step ("))).toBe(false);
    expect(lines).not.toContain(`skillgraph: ${ABSENT}`);
  }, 30_000);

  it("says why there was no such part when none ran, and the step's last line has no share", () => {
    const { status, lines } = runStep("sleep 0.3");
    expect(status).toBe(0);
    expect(lines).toContain(`skillgraph: ${ABSENT}`);
    expect(lines.at(-1)).toMatch(/^skillgraph: whole step: done in \d+\.\d s$/);
    expect(lines.some((line) => line.includes("native part (the fake build)..."))).toBe(false);
  }, 30_000);

  it("a failing step still ends its part and says it failed", () => {
    const { status, lines } = runStep('sh -c "sleep 1.5; : fake-native-build; exit 3"; exit $?');
    expect(status).toBe(3);
    expect(lines.some((line) => /^skillgraph: native part: (done in|stopped after) \d+\.\d s$/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^skillgraph: whole step: failed \(exit 3\) after \d+\.\d s \(\d+\.\d s of it native part\)$/,
    );
    expect(lines).not.toContain(`skillgraph: ${ABSENT}`);
  }, 30_000);
});
