// Error classes of shell and checkpoint: own marker and isInstance, across two copies of the packages (the core
// classes are covered in packages/core/src/errors/error-classes.test.ts).
import { describe, expect, it, vi } from "vitest";
import { CheckpointerError, SessionBusyError, SessionLeaseLostError } from "@skillgraph/checkpoint";
import { SkillgraphError, SkillLoadError } from "@skillgraph/core";
import { BubblewrapUnavailableError } from "@skillgraph/shell";
import { StagingRefusedError } from "../packages/shell/src/workspace/thread-workspaces.js";

describe("shell and checkpoint error classes", () => {
  it("each has its own isInstance, true only for its class, also for an error from a second copy", async () => {
    vi.resetModules();
    const shellCopy = await import("@skillgraph/shell");
    const checkpointCopy = await import("@skillgraph/checkpoint");
    expect(shellCopy.BubblewrapUnavailableError).not.toBe(BubblewrapUnavailableError);
    const bwrap = new shellCopy.BubblewrapUnavailableError({ bwrapPath: "/usr/bin/bwrap", message: "no bwrap" });
    const checkpointer = new checkpointCopy.CheckpointerError({
      url: "nope:",
      reason: "unknown-scheme",
      message: "unknown scheme",
    });
    expect(bwrap instanceof BubblewrapUnavailableError).toBe(false);
    for (const [error, own, other] of [
      [bwrap, BubblewrapUnavailableError, CheckpointerError],
      [checkpointer, CheckpointerError, BubblewrapUnavailableError],
    ] as const) {
      expect(own.isInstance(error)).toBe(true);
      expect(other.isInstance(error)).toBe(false);
      expect(SkillLoadError.isInstance(error)).toBe(false);
      expect(SkillgraphError.isInstance(error)).toBe(true);
    }
    expect(
      Object.hasOwn(BubblewrapUnavailableError, "isInstance") && Object.hasOwn(CheckpointerError, "isInstance"),
    ).toBe(true);
    expect([bwrap.code, checkpointer.code]).toEqual(["bubblewrap-unavailable", "checkpointer-unknown-scheme"]);
  });

  it("StagingRefusedError (internal to shell) has its own marker and code", () => {
    const error = new StagingRefusedError("cannot stage '../x'");
    expect([
      StagingRefusedError.isInstance(error),
      SkillgraphError.isInstance(error),
      BubblewrapUnavailableError.isInstance(error),
    ]).toEqual([true, true, false]);
    expect(StagingRefusedError.isInstance(new BubblewrapUnavailableError({ bwrapPath: "bwrap", message: "m" }))).toBe(
      false,
    );
    expect(error.code).toBe("workspace-path-refused");
  });

  it("the session lease errors each have their own isInstance, across two copies", async () => {
    vi.resetModules();
    const copy = await import("@skillgraph/checkpoint");
    const holder = { owner: "o", pid: 1, host: "h", since: 0, expiresAt: 1, token: 1 };
    const busy = new copy.SessionBusyError({ threadId: "t", holder });
    const lost = new copy.SessionLeaseLostError({ threadId: "t", reason: "expired" });
    expect(busy instanceof SessionBusyError).toBe(false);
    expect([
      SessionBusyError.isInstance(busy),
      SessionLeaseLostError.isInstance(busy),
      CheckpointerError.isInstance(busy),
    ]).toEqual([true, false, false]);
    expect([
      SessionLeaseLostError.isInstance(lost),
      SessionBusyError.isInstance(lost),
      SkillgraphError.isInstance(lost),
    ]).toEqual([true, false, true]);
    expect([busy.code, lost.code]).toEqual(["session-busy", "session-lease-lost"]);
  });
});
