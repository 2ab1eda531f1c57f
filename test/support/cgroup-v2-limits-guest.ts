// The program the cgroup v2 guest runs (bundled into its initramfs by test/support/cgroup-v2-vm.ts): the limit
// scenarios through the real executor, then one marked JSON line on the console, whatever happened.
import { REPORT_MARK, runLimitScenarios } from "./cgroup-limit-scenarios.js";

runLimitScenarios().then(
  (report) => process.stdout.write(`\n${REPORT_MARK}${JSON.stringify(report)}\n`),
  (error: unknown) =>
    process.stdout.write(`\n${REPORT_MARK}${JSON.stringify({ error: String((error as Error).stack ?? error) })}\n`),
);
