import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { detectCgroupHost } from "../../packages/shell/src/executor/cgroup-host.js";
import { bubblewrapWorks, EXECUTORS, harnessesFor } from "./attack-harness.js";

// A command's memory limit must hold for the command as a whole: not only its heap (RLIMIT_DATA), but shared memory
// (/dev/shm, memfd) and every process it forks. Where the host gives no cgroup, this is reported by a warning and the
// per-command cases are skipped (they say so).

const canSandbox = bubblewrapWorks();
const cgroupHost = detectCgroupHost();
/** Whether this host lets each command have a cgroup (else only bubblewrap's sized /dev/shm can hold here). */
const perCommandCgroup = !("unavailable" in cgroupHost);
if (!perCommandCgroup) console.warn(`memory per command: no cgroup here (${cgroupHost.unavailable}); cases skipped`);
const MIB = 1024 * 1024;
const LIMIT = 256 * MIB;

const forkScript = `
import os, sys, time
n, size = int(sys.argv[1]), int(sys.argv[2]) * 1024 * 1024
r, w = os.pipe()
kids = []
for _ in range(n):
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            block = bytearray(size)
            for offset in range(0, size, 4096):
                block[offset] = 1
            os.write(w, b"k")
            time.sleep(3)
        finally:
            os._exit(0)
    kids.append(pid)
os.close(w)
held = 0
while held < n:
    data = os.read(r, 16)
    if not data:
        break
    held += len(data)
print(f"held {held} of {n}", flush=True)
for pid in kids:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
`;

const sharedScript = `
import os, sys
what, name = sys.argv[1], sys.argv[2]
chunk = b"\\1" * (1024 * 1024)
fd = os.open("/dev/shm/" + name, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600) if what == "shm" else os.memfd_create("held")
written = 0
try:
    for _ in range(400):
        os.write(fd, chunk)
        written += 1
except OSError as error:
    print(f"{what} stopped: {error}", flush=True)
print(f"{what} wrote {written} MiB", flush=True)
if what == "shm":
    os.unlink("/dev/shm/" + name)
`;

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `memory per command (${executor}, limit 256 MiB)`,
    () => {
      const harness = harnessesFor(executor, afterAll);
      const shmNames: string[] = [];
      afterAll(() => {
        for (const name of shmNames) rmSync(`/dev/shm/${name}`, { force: true });
      });

      it.skipIf(!perCommandCgroup)(
        "four forked processes of 200 MiB each do not all hold their memory",
        async () => {
          const attack = harness({ limits: { memoryBytes: LIMIT } });
          const result = await attack.call("shell", {
            command: "python3 fork.py 4 200",
            files: [{ path: "fork.py", content: forkScript }],
            timeout_seconds: 60,
          });
          expect(result.reason).toBeUndefined();
          expect(result.stdout ?? "").not.toContain("held 4 of 4");
          // the result says why, from the kernel's counters of the command's group (not from what it printed)
          expect(result.limit_exceeded).toEqual([
            expect.stringMatching(
              /^killed: the command went over its memory limit \(256 MiB\); the kernel's out-of-memory killer ended /,
            ),
          ]);
        },
        90_000,
      );

      // without a cgroup only bubblewrap's sized /dev/shm holds; the other cases need one
      const shared = ["shm", "memfd"].filter(
        (what) => perCommandCgroup || (what === "shm" && executor === "bubblewrap"),
      );
      it.skipIf(shared.length === 0).each(shared.length > 0 ? shared : ["memfd"])(
        "%s cannot hold 400 MiB",
        async (what) => {
          const attack = harness({ limits: { memoryBytes: LIMIT } });
          const name = `attack-${randomUUID()}`;
          shmNames.push(name);
          const result = await attack.call("shell", {
            command: `python3 shared.py ${what} ${name}`,
            files: [{ path: "shared.py", content: sharedScript }],
            timeout_seconds: 60,
          });
          expect(result.reason).toBeUndefined();
          expect(result.stdout ?? "").not.toContain(`${what} wrote 400 MiB`);
        },
        90_000,
      );
    },
  );
}

// What the model is told when a command meets a limit of its group, and that it is told nothing when it does not.
/** Holds 150 MiB in a memfd (not counted by RLIMIT_DATA), then allocates 16 MiB at a time until it is stopped. */
const hogScript = `
import os
fd = os.memfd_create("held")
for _ in range(150):
    os.write(fd, b"\\1" * (1 << 20))
held = []
while True:
    held.append(bytearray(16 << 20))
    for offset in range(0, 16 << 20, 4096):
        held[-1][offset] = 1
`;

for (const executor of EXECUTORS) {
  describe.skipIf((executor === "bubblewrap" && !canSandbox && process.env.CI !== "true") || !perCommandCgroup)(
    `the result names the limit a command met (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);

      it("a command killed at its memory limit: the result says so (and, local, what the unshare line is)", async () => {
        const attack = harness({ limits: { memoryBytes: LIMIT } });
        const result = await attack.call("shell", {
          command: "python3 hog.py",
          files: [{ path: "hog.py", content: hogScript }],
          timeout_seconds: 60,
        });
        expect(result.reason).toBeUndefined();
        expect(result.limit_exceeded).toEqual([
          expect.stringMatching(
            /^killed: the command went over its memory limit \(256 MiB\); the kernel's out-of-memory killer ended a process of it/,
          ),
        ]);
        // what the process did is kept: bubblewrap passes the SIGKILL on as 137; util-linux `unshare --fork` (the local
        // executor's PID namespace) cannot re-raise it, exits 1 and says so on stderr, which the message explains
        if (executor === "bubblewrap") expect(result).toMatchObject({ exit_code: 137, stderr: "" });
        else {
          expect(result).toMatchObject({
            exit_code: 1,
            stderr: "unshare: sigprocmask unblock failed: Invalid argument\n",
          });
          expect(result.limit_exceeded[0]).toContain("come from the process-namespace wrapper");
        }
      }, 90_000);

      it("a command that forks past its process limit: its forks failed at the limit", async () => {
        const attack = harness({ limits: { processes: 16 } });
        const result = await attack.call("shell", {
          command: "for i in $(seq 40); do sleep 1 & done; wait",
          timeout_seconds: 60,
        });
        expect(result.reason).toBeUndefined();
        expect(result.limit_exceeded).toEqual([
          expect.stringMatching(/^the command hit its process limit \(16 processes\): (a fork|\d+ forks) failed$/),
        ]);
      }, 90_000);

      it("a command under its limits, and one that times out, are told of no limit", async () => {
        const attack = harness({ limits: { memoryBytes: LIMIT } });
        const normal = await attack.call("shell", { command: "echo hi" });
        expect(normal).toMatchObject({ status: "ok", stdout: "hi\n" });
        expect(normal).not.toHaveProperty("limit_exceeded");
        const slow = await attack.call("shell", { command: "sleep 30", timeout_seconds: 1 });
        expect(slow.status).toBe("timed_out");
        expect(slow).not.toHaveProperty("limit_exceeded");
      }, 60_000);
    },
  );
}
