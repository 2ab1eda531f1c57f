// What the per-command cgroup costs on cgroup v2, where this kind of host cannot show it (its memory and pids
// controllers are bound to v1): the same measurement as shell-overhead's v1 lines (`/bin/true` through the local
// executor with the default limits, with and without the cgroup, alternated call by call, back to back and with a
// pause before each sample; test/support/cgroup-cost-scenario.ts) run on the host, then inside a Debian kernel with
// every controller on v2 booted under qemu (test/support/cgroup-v2-vm.ts). qemu emulates the CPU here (no KVM), so
// the guest's milliseconds are not the host's: the host's cgroup-less median calibrates them (slowdown = guest's
// cgroup-less median / host's, per phase), and on − off is given in guest ms, scaled to host ms, and as a fraction of
// the command's own (cgroup-less) time. Emulation does not slow every part of the path alike, so the same guest is
// also booted with memory and pids on v1 as a control: what v2 adds over v1 there, as a fraction of the command's
// time, is added to the host's own v1 figure for the estimate that carries over (see docs/design/cgroup-v2-cost.md).
// Run: node --import tsx bench/cgroup-v2-guest.ts [--quick]   (writes bench/results/cgroup-v2-guest.json)
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCgroupCost, type CostPhase, type CostReport } from "../test/support/cgroup-cost-scenario.js";
import { bootGuest, prepareGuestImage, type GuestImage } from "../test/support/cgroup-v2-vm.js";
import { bootstrapInterval } from "./support/bootstrap-interval.js";
import { median } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const pairs = Number(process.env.BENCH_GUEST_PAIRS ?? (quick ? 5 : 40));
/** The host's pause before each sample (where an agent's model call stands), as in shell-overhead. */
const PAUSE_MS = 200;
/** The guest's pause is PAUSE_MS scaled by its slowdown, at most this (it bounds the run: 2 × (pairs + 3) pauses). */
const MAX_GUEST_PAUSE_MS = 1000;
const GOAL_MS = 1;
/** A generous bound on one emulated sample, for the guest's hard timeout only. */
const SAMPLE_BOUND_MS = 3000;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const outFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "results/cgroup-v2-guest.json");

function save(results: Record<string, unknown>): void {
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), outFile)}`);
}

const hostLabel = (report: CostReport) =>
  "unavailable" in report.host ? "no per-command cgroup" : `cgroup v${report.host.version}`;
const phaseLabel = (phase: CostPhase) =>
  phase.pauseMs === 0 ? "back to back" : `${phase.pauseMs} ms pause before each`;
const signed = (value: number) => `${value >= 0 ? "+" : ""}${value}`;

/** The guest's phase against the host's: slowdown, on − off in guest ms, scaled to host ms, and as a fraction. */
function calibrated(guest: CostPhase, host: CostPhase) {
  const slowdown = guest.off.medianMs / host.off.medianMs;
  const extraGuestMs = guest.extraMs ?? Number.NaN;
  const extraScaledMs = round(extraGuestMs / slowdown);
  const fraction = round(extraGuestMs / guest.off.medianMs, 3);
  return {
    guestOffMs: guest.off.medianMs,
    guestOnMs: guest.on?.medianMs,
    extraGuestMs,
    hostOffMs: host.off.medianMs,
    slowdown: round(slowdown, 1),
    extraScaledMs,
    fraction,
    goalMs: GOAL_MS,
    met: extraScaledMs <= GOAL_MS,
    guestPauseMs: guest.pauseMs,
    hostPauseMs: host.pauseMs,
    runs: guest.off.samplesMs.length,
  };
}

const image = prepareGuestImage();
if ("missing" in image) {
  console.log(`cgroup per command on cgroup v2 (qemu guest): not available here (${image.missing})`);
  save({ available: false, reason: image.missing });
  // in CI the guest is expected: a missing qemu or kernel is a failure there
  process.exit(process.env.CI === "true" ? 1 : 0);
}

const host = await runCgroupCost({ pairs, pauseMs: PAUSE_MS });
for (const [name, phase] of [
  ["back to back", host.backToBack],
  ["paused", host.paused],
] as const) {
  const cost = phase.extraMs === undefined ? "" : `, on ${phase.on?.medianMs} ms, on − off ${signed(phase.extraMs)} ms`;
  console.log(
    `host (${hostLabel(host)}, kernel ${host.kernel}), ${name} (${phaseLabel(phase)}): \`/bin/true\` off ${phase.off.medianMs} ms${cost} (n=${pairs}, alternated)`,
  );
}

const ready: GuestImage = image;
const cpus = Math.min(os.cpus().length, 4);
// boot and start-up, then both phases: 2 arms × (pairs + 3) samples each, a sample at most SAMPLE_BOUND_MS + its pause
const timeoutMs = 120_000 + 2 * (pairs + 3) * (2 * SAMPLE_BOUND_MS + MAX_GUEST_PAUSE_MS);
const results: Record<string, unknown> = {
  available: true,
  kernelPackage: image.kernelPackage,
  qemu: image.qemuVersion,
  cpus,
  pairs,
  host: { cgroup: hostLabel(host), kernel: host.kernel, backToBack: host.backToBack, paused: host.paused },
};

/** The cost measured in the guest with memory and pids on cgroup `version`; exits (1) when the guest fails. */
async function guestCost(version: 1 | 2): Promise<CostReport> {
  const outcome = await bootGuest<CostReport>(ready, {
    request: {
      mode: "cost",
      params: { pairs, pauseMs: PAUSE_MS, hostOffMs: host.backToBack.off.medianMs, maxPauseMs: MAX_GUEST_PAUSE_MS },
    },
    timeoutMs,
    cpus,
    cgroupVersion: version,
  });
  const guest = outcome.report;
  let failure: string | undefined;
  if (!guest || "error" in guest) failure = guest && "error" in guest ? guest.error : `no report (${outcome.ending})`;
  else if ("unavailable" in guest.host || guest.host.version !== version || !guest.backToBack.on || !guest.paused.on)
    failure = `no cgroup v${version} group in the guest (${JSON.stringify(guest.host)})`;
  if (failure || !guest || "error" in guest) {
    console.log(
      `cgroup per command, qemu guest on cgroup v${version}: FAILED: ${failure}\n${outcome.console.slice(-2000)}`,
    );
    save({ ...results, failed: { [`v${version}`]: failure } });
    process.exit(1);
  }
  console.log(
    `guest on cgroup v${version} (memory, pids): ${ready.kernelPackage} under ${ready.qemuVersion} (TCG software ` +
      `emulation, ${cpus} vCPUs), booted and measured in ${round(outcome.elapsedMs / 1000, 1)} s; ` +
      `a command's group: ${guest.placement.on}`,
  );
  return guest;
}

/**
 * The 90% bootstrap interval of the estimate (host v1 on − off + (v2 − v1 fraction in the guest) × host off), every
 * arm's samples resampled on their own: how far the estimate moves with the samples' spread alone.
 */
function estimateInterval(onHost: CostPhase, onV2: CostPhase, onV1: CostPhase): [number, number] {
  const arms = [onHost, onV2, onV1].flatMap((phase) => [phase.off.samplesMs, phase.on?.samplesMs ?? []]);
  const [low, high] = bootstrapInterval(arms, (resampled) => {
    const [hostOff, hostOn, v2Off, v2On, v1Off, v1On] = resampled.map((sample) => median(sample));
    const fraction = (on = 0, off = 1) => (on - off) / off;
    return (
      (hostOn as number) - (hostOff as number) + (fraction(v2On, v2Off) - fraction(v1On, v1Off)) * (hostOff as number)
    );
  });
  return [round(low), round(high)];
}

const v2 = await guestCost(2);
const v1 = await guestCost(1);
results.guestV2 = { kernel: v2.kernel, placement: v2.placement, backToBack: v2.backToBack, paused: v2.paused };
results.guestV1 = { kernel: v1.kernel, placement: v1.placement, backToBack: v1.backToBack, paused: v1.paused };
const verdict = (ms: number) => `(goal <= ${GOAL_MS} ms) ${ms <= GOAL_MS ? "MET" : "NOT MET"}`;
for (const [key, name] of [
  ["backToBack", "back to back"],
  ["paused", "paused"],
] as const) {
  const direct = calibrated(v2[key], host[key]);
  const control = calibrated(v1[key], host[key]);
  const pause = key === "paused" ? `, guest pause ${direct.guestPauseMs} ms` : "";
  for (const [version, figures] of [
    [2, direct],
    [1, control],
  ] as const) {
    console.log(
      `cgroup per command in the guest on cgroup v${version} (local, ${name}${pause}; emulated): off ${figures.guestOffMs} ms, ` +
        `on ${figures.guestOnMs} ms, on − off ${signed(figures.extraGuestMs)} guest ms = ` +
        `${signed(round(figures.fraction * 100, 1))}% of the command's own time; slowdown ${figures.slowdown}x ` +
        `(host off ${figures.hostOffMs} ms) → ${signed(figures.extraScaledMs)} host ms (n=${figures.runs}, alternated)` +
        (version === 2 ? ` ${verdict(figures.extraScaledMs)}` : " (control)"),
    );
  }
  // what v2 adds over v1 under the same emulation, as a fraction of the command's time, on top of the host's v1 figure
  const overV1Ms = round((direct.fraction - control.fraction) * host[key].off.medianMs);
  const hostExtra = host[key].extraMs;
  const estimate = hostExtra === undefined ? undefined : round(hostExtra + overV1Ms);
  const interval = estimate === undefined ? undefined : estimateInterval(host[key], v2[key], v1[key]);
  results[`cost_${key}`] = {
    v2: direct,
    v1Control: control,
    v2OverV1HostMs: overV1Ms,
    hostV2EstimateMs: estimate,
    ...(interval ? { hostV2Estimate90Ms: interval } : {}),
  };
  if (estimate !== undefined && interval && !("unavailable" in host.host) && host.host.version === 1)
    console.log(
      `cgroup per command on cgroup v2, estimated for this host (${name}): host v1 on − off ${signed(hostExtra as number)} ms ` +
        `+ (v2 − v1 in the guest: ${signed(round((direct.fraction - control.fraction) * 100, 1))}% of the command's time = ` +
        `${signed(overV1Ms)} host ms) = ${signed(estimate)} ms, 90% bootstrap interval ` +
        `[${signed(interval[0])}, ${signed(interval[1])}] ms ${verdict(estimate)}`,
    );
}
console.log(
  "how to read: the guest's times are emulated, and emulation need not slow the launcher's path and the plain spawn " +
    "alike; the v1 control (same guest, memory and pids on v1) against this host's own v1 line shows how far it does. " +
    "Where they differ, the direct v2 line does not carry over as such; the v2 − v1 difference under the same " +
    "emulation does (an estimate: it assumes emulation distorts both versions alike)",
);
save(results);
