// Prints the plain summary line CI reads: "N passed, N failed", from vitest's JSON report. Before it, one line splits
// the count into the project's own tests and the conformance cases (files named *conformance*: the official saver
// suite run against our savers, and the corpus checked against the reference validator's verdicts).
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";

const [file, statusText] = process.argv.slice(2);
const status = Number(statusText ?? 1);
if (!file || !existsSync(file)) {
  console.log("0 passed, 1 failed");
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const counts = { project: { passed: 0, failed: 0 }, conformance: { passed: 0, failed: 0 } };
for (const suite of report.testResults ?? []) {
  const kind = basename(suite.name ?? "").includes("conformance") ? counts.conformance : counts.project;
  const assertions = suite.assertionResults ?? [];
  for (const test of assertions) {
    if (test.status === "passed") kind.passed++;
    else if (test.status === "failed") kind.failed++;
  }
  // A test file that failed to load has no assertions but still failed.
  if (assertions.length === 0 && suite.status === "failed") kind.failed++;
}
const passed = counts.project.passed + counts.conformance.passed;
let failed = counts.project.failed + counts.conformance.failed;
if (status !== 0 && failed === 0) failed = 1;
console.log(
  `project tests: ${counts.project.passed} passed, ${counts.project.failed} failed; ` +
    `conformance cases: ${counts.conformance.passed} passed, ${counts.conformance.failed} failed`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
