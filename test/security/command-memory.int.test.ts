import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { detectCgroupHost } from "../../packages/shell/src/executor/command-cgroup.js";
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
