// The program the cgroup v2 guest runs (bundled into its initramfs by test/support/cgroup-v2-vm.ts): the mode the
// kernel's command line names (test/support/cgroup-v2-guest-protocol.ts), the limit scenarios or the cost
// measurement, through the real executor; then one marked JSON line on the console, whatever happened.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCgroupCost } from "./cgroup-cost-scenario.js";
import { runLimitScenarios } from "./cgroup-limit-scenarios.js";
import { readGuestRequest, REPORT_MARK, type GuestRequest } from "./cgroup-v2-guest-protocol.js";

/**
 * Moves this process from the root group into a group of its own, `/agent` (in the memory and pids hierarchies on
 * v1), as an agent runs on a real host (in a systemd slice, a container's group). The kernel charges no memory to the
 * root group, so a command left there (the cost measurement's cgroup-less arm) would skip the memory accounting that
 * every command pays on a real host, with or without a group of its own.
 */
function enterAgentGroup(): void {
  const v2 = existsSync("/sys/fs/cgroup/cgroup.controllers");
  const folders = v2 ? ["/sys/fs/cgroup/agent"] : ["/sys/fs/cgroup/memory/agent", "/sys/fs/cgroup/pids/agent"];
  for (const folder of folders) {
    mkdirSync(folder);
    writeFileSync(path.join(folder, "cgroup.procs"), String(process.pid));
  }
}

/** Runs what the request names (the cost measurement's defaults: 20 pairs, 200 ms pause, not scaled). */
async function runRequest(request: GuestRequest): Promise<unknown> {
  if (request.mode === "limits") return runLimitScenarios();
  enterAgentGroup();
  const { pairs = 20, pauseMs = 200, hostOffMs, maxPauseMs } = request.params;
  return runCgroupCost({ pairs, pauseMs, ...(hostOffMs ? { hostOffMs } : {}), ...(maxPauseMs ? { maxPauseMs } : {}) });
}

const main = async () => runRequest(readGuestRequest(readFileSync("/proc/cmdline", "utf8")));
main().then(
  (report) => process.stdout.write(`\n${REPORT_MARK}${JSON.stringify(report)}\n`),
  (error: unknown) =>
    process.stdout.write(`\n${REPORT_MARK}${JSON.stringify({ error: String((error as Error).stack ?? error) })}\n`),
);
