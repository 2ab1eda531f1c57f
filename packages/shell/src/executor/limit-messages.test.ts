import { describe, expect, it } from "vitest";
import { finished } from "../call/__fixtures__/call-runtime.js";
import { limitMessages } from "./limit-messages.js";
import { resultPayload } from "../call/tool-payload.js";

const MIB = 1024 * 1024;

describe("limitMessages", () => {
  it("says nothing for a command that met no limit", () => {
    expect(limitMessages(finished(1))).toEqual([]);
    expect(JSON.parse(resultPayload(finished(1), { command: "x", executor: "local" }))).not.toHaveProperty(
      "limit_exceeded",
    );
  });

  it("names the memory limit and the process limit with their sizes", () => {
    const result = {
      ...finished(137),
      limitExceeded: {
        memory: { limitBytes: 256 * MIB, oomKills: 2 },
        processes: { limit: 64, refusedForks: 1 },
      },
    };
    expect(limitMessages(result)).toEqual([
      "killed: the command went over its memory limit (256 MiB); the kernel's out-of-memory killer ended 2 processes of it",
      "the command hit its process limit (64 processes): a fork failed",
    ]);
    expect(JSON.parse(resultPayload(result, { command: "x", executor: "local" })).limit_exceeded).toEqual(
      limitMessages(result),
    );
  });

  it("explains the line util-linux unshare prints when its command was killed, and keeps it", () => {
    const result = {
      ...finished(1),
      stderr: "unshare: sigprocmask unblock failed: Invalid argument\n",
      limitExceeded: { memory: { limitBytes: 100_000_000, oomKills: 1 } },
    };
    expect(limitMessages(result)).toEqual([
      "killed: the command went over its memory limit (100000000 bytes); the kernel's out-of-memory killer ended a process of it (the 'unshare: sigprocmask unblock failed' line on stderr and exit 1 come from the process-namespace wrapper, which cannot pass a SIGKILL on)",
    ]);
    expect(JSON.parse(resultPayload(result, { command: "x", executor: "local" }))).toMatchObject({
      exit_code: 1,
      stderr: result.stderr,
    });
  });
});
