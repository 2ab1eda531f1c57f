import { describe, expect, it } from "vitest";
import { isServerRestarting, retryWhileRestarting } from "./startup-retry.js";

describe("retryWhileRestarting", () => {
  it("waits out a set-up whose connection a restart ended between two statements", async () => {
    // what pg's Client says to the next query once a restart has cut its connection
    const cut = new Error("Client has encountered a connection error and is not queryable");
    expect(isServerRestarting(cut)).toBe(true);
    let calls = 0;
    const outcome = await retryWhileRestarting(async () => {
      calls += 1;
      if (calls < 3) throw cut;
      return "set up";
    }, 10_000);
    expect(outcome).toEqual({ value: "set up" });
    expect(calls).toBe(3);
  });

  it("gives up at once on an error that is not a restart", async () => {
    const outcome = await retryWhileRestarting(async () => {
      throw Object.assign(new Error('relation "x" already exists'), { code: "42P07" });
    }, 10_000);
    expect(outcome).toMatchObject({ gaveUp: { attempts: 1, timedOut: false } });
  });
});
