import { beforeAll, describe, expect, it } from "vitest";
import { median } from "../../../../bench/support/stats.js";
import type { CostPhase, CostReport } from "../../../../test/support/cgroup-cost-scenario.js";
import { bootGuest, prepareGuestImage, type BootOutcome } from "../../../../test/support/cgroup-v2-vm.js";

// The guest's cost mode, which `pnpm bench cgroup-v2` reads its figures from (bench/cgroup-v2-guest.ts): the qemu
// guest of command-cgroup-v2-limits.int.test.ts, booted once with every controller on cgroup v2 and once with memory
// and pids on v1 (the bench's control), runs `/bin/true` through the real local executor with and without the
// per-command cgroup. What is checked is that each guest measured what the bench says it did (both arms, every pair,
// in each phase, the commands in their groups, the pause scaled and capped as asked), never how long anything took.
// Under CI=true a missing qemu or kernel fails; elsewhere the file is skipped and says why.

const BOOT_TIMEOUT_MS = 240_000;
const PAIRS = 3;
const PAUSE_MS = 50;
/** A host median far below any guest's, so the scaled pause (PAUSE_MS × slowdown) is always capped at MAX_PAUSE_MS. */
const HOST_OFF_MS = 0.001;
const MAX_PAUSE_MS = 300;
const inCi = process.env.CI === "true";
const image = prepareGuestImage();
if ("missing" in image && !inCi) console.warn(`cgroup v2 cost: no qemu guest here (${image.missing}); skipped`);

const outcomes = new Map<1 | 2, BootOutcome<CostReport>>();

/** The report of the guest on cgroup `version`, or a failure that says how its boot ended. */
function report(version: 1 | 2): CostReport {
  const outcome = outcomes.get(version);
  if (!outcome?.report)
    throw new Error(`no report from the v${version} guest (${outcome?.ending}):\n${outcome?.console.slice(-3000)}`);
  if ("error" in outcome.report)
    throw new Error(`the cost mode failed in the v${version} guest: ${outcome.report.error}`);
  return outcome.report;
}

const phases = (found: CostReport): Array<[string, CostPhase]> => [
  ["backToBack", found.backToBack],
  ["paused", found.paused],
];

describe.skipIf("missing" in image && !inCi)("the cgroup cost measurement in the qemu guest (cost mode)", () => {
  beforeAll(async () => {
    if ("missing" in image) throw new Error(`CI=true and the cgroup v2 guest cannot be prepared: ${image.missing}`);
    const params = { pairs: PAIRS, pauseMs: PAUSE_MS, hostOffMs: HOST_OFF_MS, maxPauseMs: MAX_PAUSE_MS };
    const boots = ([2, 1] as const).map(async (cgroupVersion) => {
      const outcome = await bootGuest<CostReport>(image, {
        request: { mode: "cost", params },
        timeoutMs: BOOT_TIMEOUT_MS,
        cgroupVersion,
      });
      outcomes.set(cgroupVersion, outcome);
      console.log(`cgroup v${cgroupVersion} cost guest: ${outcome.ending} after ${outcome.elapsedMs} ms`);
    });
    await Promise.all(boots);
  }, BOOT_TIMEOUT_MS + 60_000);

  it.each([2, 1] as const)("the guest on cgroup v%i measures and powers off before the hard timeout", (version) => {
    const outcome = outcomes.get(version);
    expect(outcome?.ending, outcome?.console.slice(-3000)).toBe("powered off");
    expect(outcome?.exitCode).toBe(0);
    expect(report(version).pairs).toBe(PAIRS);
  });

  it("finds its memory and pids controllers where each boot put them, under the agent's own group", () => {
    expect(report(2).host).toEqual({
      version: 2,
      memoryParent: "/sys/fs/cgroup/agent",
      pidsParent: "/sys/fs/cgroup/agent",
    });
    expect(report(1).host).toEqual({
      version: 1,
      memoryParent: "/sys/fs/cgroup/memory/agent",
      pidsParent: "/sys/fs/cgroup/pids/agent",
    });
  });

  it.each([
    [2, "/agent/skillgraph-agent"],
    [1, "/agent"],
  ] as const)(
    "on v%i, a command with the cgroup runs in its armed launcher's group; without, in the agent's (not the root)",
    (version, agentGroup) => {
      const { placement } = report(version);
      expect(placement.on).toMatch(/^\/agent\/skillgraph-\d+-launch-[0-9a-f-]+$/);
      // on v2 the agent's group delegates the controllers, so the agent moved into a leaf of it (no internal process)
      expect(placement.off).toBe(agentGroup);
    },
  );

  it.each([2, 1] as const)("on v%i, both arms ran every pair in both phases, each command exiting 0", (version) => {
    for (const [name, phase] of phases(report(version))) {
      for (const arm of [phase.off, phase.on]) {
        expect(arm?.samplesMs, name).toHaveLength(PAIRS);
        expect(arm?.failed, name).toBe(0);
        expect(arm?.medianMs, name).toBeCloseTo(median(arm?.samplesMs ?? []), 2);
      }
      expect(phase.extraMs, name).toBeCloseTo((phase.on?.medianMs ?? Number.NaN) - phase.off.medianMs, 2);
    }
  });

  it.each([2, 1] as const)(
    "on v%i, the pause is none back to back, and scaled by the slowdown up to its cap",
    (version) => {
      const found = report(version);
      expect(found.backToBack.pauseMs).toBe(0);
      expect(found.paused.pauseMs).toBe(MAX_PAUSE_MS);
    },
  );
});
