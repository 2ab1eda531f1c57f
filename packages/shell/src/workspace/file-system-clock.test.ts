import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { fileSystemNow } from "./file-system-clock.js";

// The kernel stamps files with a clock that lags Date.now() by up to a timer tick; outputs are "written since the run
// started" only if the start is read from the same clock. Written right after, a file is never older than the start.
it("a file written after fileSystemNow() is never stamped before it", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fs-clock-"));
  let olderThanDateNow = 0;
  for (let round = 0; round < 3000; round += 1) {
    // a new file each time, as a command writes its outputs: a file nobody has looked at yet gets the coarse stamp
    const file = path.join(dir, `out-${round}.txt`);
    const precise = Date.now();
    const start = fileSystemNow();
    writeFileSync(file, String(round));
    const stamped = statSync(file).mtimeMs;
    expect(stamped).toBeGreaterThanOrEqual(start);
    if (stamped < precise) olderThanDateNow += 1;
  }
  // how often Date.now() would have missed the file on this machine (the reason for this clock), for the record
  console.log(`a file stamped before Date.now() in ${olderThanDateNow} of 3000 rounds`);
});
