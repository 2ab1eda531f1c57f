import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createBubblewrapExecutor } from "@skillgraph/shell";
import { resolveLimits } from "../../packages/shell/src/executor/command-limits.js";
import { bubblewrapWorks } from "./attack-harness.js";

// Without a cgroup per command (`limits: { cgroup: false }`, or a host that allows none), memory files are what a
// command can fill past its per-process RLIMIT_DATA: bwrap's /dev is a tmpfs with no size, so a file written there grew
// until the host ran out of memory. /dev is read-only now and /dev/shm a sized tmpfs of its own; each memfd is bounded by
// RLIMIT_FSIZE. Sizes here are small so the attack stays cheap: 4 MiB is written where at most 1 MiB may go.

const MIB = 1024 * 1024;

function run(command: string) {
  const limits = resolveLimits({ cgroup: false, sharedMemoryBytes: MIB, fileSizeBytes: MIB, tmpBytes: MIB });
  const executor = createBubblewrapExecutor({ limits });
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "memory-files-"));
  return executor.run({
    argv: ["/bin/sh", "-c", command],
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
  });
}

/** Writes 4 MiB to `file` (a write error is expected), then prints how many bytes it holds. */
const fill = (file: string) =>
  `head -c ${4 * MIB} /dev/zero > ${file} 2>/dev/null; wc -c < ${file} 2>/dev/null || echo 0`;

describe.skipIf(!bubblewrapWorks() && process.env.CI !== "true")(
  "memory files under bubblewrap without a cgroup",
  () => {
    it("a file written in /dev itself is refused (it was an unsized tmpfs)", async () => {
      const result = await run(fill("/dev/fill"));
      expect(Number(result.stdout.trim())).toBe(0);
    });

    it("a folder made in /dev is refused too", async () => {
      const result = await run("mkdir /dev/d 2>/dev/null && echo made || echo refused");
      expect(result.stdout.trim()).toBe("refused");
    });

    it("/dev/shm holds at most its size", async () => {
      const result = await run(fill("/dev/shm/x"));
      expect(Number(result.stdout.trim())).toBeLessThanOrEqual(MIB);
      expect(Number(result.stdout.trim())).toBeGreaterThan(0);
    });

    it("a memfd holds at most fileSizeBytes", async () => {
      const result = await run(
        `python3 -c "import os,signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); fd=os.memfd_create('x'); os.write(fd, b'a'*${4 * MIB}); print(os.fstat(fd).st_size)" 2>&1`,
      );
      expect(Number(result.stdout.trim())).toBeLessThanOrEqual(MIB);
      expect(Number(result.stdout.trim())).toBeGreaterThan(0);
    });

    it("device nodes still work (/dev/null, /dev/zero, /dev/urandom)", async () => {
      const result = await run("echo x > /dev/null && head -c 4 /dev/zero | wc -c && head -c 4 /dev/urandom | wc -c");
      expect(result.stdout.split("\n").filter(Boolean)).toEqual(["4", "4"]);
    });
  },
);
