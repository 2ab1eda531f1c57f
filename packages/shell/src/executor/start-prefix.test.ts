import { describe, expect, it } from "vitest";
import type { CommandLimits } from "./command-limits.js";
import { CLOSE_INHERITED, startPrefix, ulimitExact } from "./start-prefix.js";

const limits: CommandLimits = {
  prlimitPath: "/usr/bin/prlimit",
  memoryBytes: 4 * 1024 ** 3,
  processes: 512,
  fileSizeBytes: 1024 ** 3,
  openFiles: 1024,
  tmpBytes: 512 * 1024 ** 2,
  sharedMemoryBytes: 64 * 1024 ** 2,
};

describe("startPrefix", () => {
  it("starts through one bash that sets the limits, closes inherited descriptors and execs the command", () => {
    const prefix = startPrefix(limits, "/usr/bin/bash");
    expect(prefix.slice(0, 4)).toEqual(["/usr/bin/bash", "--noprofile", "--norc", "-c"]);
    expect(prefix).toHaveLength(6);
    const script = prefix[4]!;
    expect(script).toContain(`ulimit -d ${4 * 1024 ** 2} && ulimit -u 512`);
    expect(script).toContain(CLOSE_INHERITED);
    expect(script.endsWith('exec "$@"')).toBe(true);
  });

  it("lets prlimit set a limit bash's ulimit (KiB) cannot set exactly, and still closes the descriptors", () => {
    const odd = { ...limits, memoryBytes: 4 * 1024 ** 3 + 1 };
    expect(ulimitExact(odd)).toBe(false);
    const prefix = startPrefix(odd, "/usr/bin/bash");
    expect(prefix.slice(0, 2)).toEqual(["/usr/bin/prlimit", `--data=${odd.memoryBytes}`]);
    const bash = prefix.indexOf("/usr/bin/bash");
    expect(prefix[bash - 1]).toBe("--");
    expect(prefix[bash + 4]).not.toContain("ulimit");
    expect(prefix[bash + 4]).toContain(CLOSE_INHERITED);
  });

  it("closes the descriptors even with no limits", () => {
    const prefix = startPrefix(undefined, "/bin/bash");
    expect(prefix[0]).toBe("/bin/bash");
    expect(prefix[4]).toBe(`${CLOSE_INHERITED}\nexec "$@"`);
  });
});
