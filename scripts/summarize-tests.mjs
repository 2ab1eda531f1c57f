// Prints the plain summary line CI reads: "N passed, N failed", from vitest's JSON report.
import { existsSync, readFileSync } from "node:fs";

const [file, statusText] = process.argv.slice(2);
const status = Number(statusText ?? 1);
if (!file || !existsSync(file)) {
  console.log("0 passed, 1 failed");
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(file, "utf8"));
let passed = 0;
let failed = 0;
for (const suite of report.testResults ?? []) {
  const assertions = suite.assertionResults ?? [];
  for (const test of assertions) {
    if (test.status === "passed") passed++;
    else if (test.status === "failed") failed++;
  }
  // A test file that failed to load has no assertions but still failed.
  if (assertions.length === 0 && suite.status === "failed") failed++;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
