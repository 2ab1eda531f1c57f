// The program the cgroup v2 guest runs (bundled into its initramfs by test/support/cgroup-v2-vm.ts): the mode the
// kernel's command line names (test/support/cgroup-v2-guest-protocol.ts), the limit scenarios or the cost
// measurement, through the real executor; then one marked JSON line on the console, whatever happened.
import { readFileSync } from "node:fs";
import { runCgroupCost } from "./cgroup-cost-scenario.js";
import { runLimitScenarios } from "./cgroup-limit-scenarios.js";
import { readGuestRequest, REPORT_MARK, type GuestRequest } from "./cgroup-v2-guest-protocol.js";

/** Runs what the request names (the cost measurement's defaults: 20 pairs, 200 ms pause, not scaled). */
async function runRequest(request: GuestRequest): Promise<unknown> {
  if (request.mode === "limits") return runLimitScenarios();
  const { pairs = 20, pauseMs = 200, hostOffMs, maxPauseMs } = request.params;
  return runCgroupCost({ pairs, pauseMs, ...(hostOffMs ? { hostOffMs } : {}), ...(maxPauseMs ? { maxPauseMs } : {}) });
}

const main = async () => runRequest(readGuestRequest(readFileSync("/proc/cmdline", "utf8")));
main().then(
  (report) => process.stdout.write(`\n${REPORT_MARK}${JSON.stringify(report)}\n`),
  (error: unknown) =>
    process.stdout.write(`\n${REPORT_MARK}${JSON.stringify({ error: String((error as Error).stack ?? error) })}\n`),
);
