import { describe, expect, it } from "vitest";
import { commandLimitsOptionSchema } from "../executor/command-limits.js";
import { parseOptions } from "../internal/core.js";
import { shellHookOptionsSchema } from "./shell-hook-options.js";

const skills = { get: () => undefined };

describe("the shell hook's options schema", () => {
  it("holds every default: nothing is filled in after it runs", () => {
    const options = parseOptions(shellHookOptionsSchema, { skills });
    expect(options.maxTimeoutMs).toBe(600_000);
    expect(options.skillEnvironments).toMatchObject({ approve: "interrupt", pipArgs: [], installTimeoutMs: 600_000 });
    expect(options.skillEnvironments && options.skillEnvironments.root).toMatch(/skillgraph/);
    expect(options.sessions).toEqual({ maxPerThread: 4, maxUnreadBytes: 65_536 });
    expect(options.outputFiles).toEqual({ maxFiles: 20, maxFileBytes: 1_048_576, inlineTextBytes: 16_384 });
    expect(options.artifacts).toEqual({
      maxBytes: 8 * 1024 * 1024,
      quota: { maxBytesPerThread: 64 * 1024 ** 2, maxVersionsPerThread: 256 },
      alwaysSave: false,
    });
  });

  it("derives the largest timeout from a larger default timeout, and keeps one given", () => {
    expect(parseOptions(shellHookOptionsSchema, { skills, timeoutMs: 900_000 }).maxTimeoutMs).toBe(900_000);
    expect(parseOptions(shellHookOptionsSchema, { skills, maxTimeoutMs: 700_000 }).maxTimeoutMs).toBe(700_000);
    expect(() => parseOptions(shellHookOptionsSchema, { skills, timeoutMs: 5_000, maxTimeoutMs: 1_000 })).toThrow(
      "Invalid option 'maxTimeoutMs': must be at least timeoutMs (5000)",
    );
  });

  it("fills a partial object's defaults inside it (skill environments, limits, artifacts)", () => {
    const options = parseOptions(shellHookOptionsSchema, {
      skills,
      skillEnvironments: { approve: "never" },
      artifacts: { quota: { maxVersionsPerThread: 3 } },
    });
    expect(options.skillEnvironments).toMatchObject({ approve: "never", pipArgs: [], installTimeoutMs: 600_000 });
    expect(options.artifacts).toMatchObject({ quota: { maxBytesPerThread: 64 * 1024 ** 2, maxVersionsPerThread: 3 } });
    expect(parseOptions(commandLimitsOptionSchema, { processes: 64 })).toEqual({
      memoryBytes: 4 * 1024 ** 3,
      processes: 64,
      fileSizeBytes: 1024 ** 3,
      openFiles: 1024,
      tmpBytes: 512 * 1024 ** 2,
      sharedMemoryBytes: 64 * 1024 ** 2,
      cgroup: true,
    });
  });

  it("refuses a store that is neither a BaseStore nor an ArtifactStore, naming it", () => {
    expect(() => parseOptions(shellHookOptionsSchema, { skills, artifacts: { store: {} } })).toThrow(
      "Invalid option 'artifacts.store': must be a LangGraph BaseStore or an ArtifactStore",
    );
  });
});
