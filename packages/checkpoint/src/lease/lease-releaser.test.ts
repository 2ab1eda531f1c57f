import { afterEach, describe, expect, it, vi } from "vitest";
import { FIRST_RETRY_MS, leaseReleaser } from "./lease-releaser.js";

const lost = () => Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });

afterEach(() => vi.useRealTimers());

describe("leaseReleaser", () => {
  it("a second release() after a failure really tries again, and resolves once the row is ended", async () => {
    let calls = 0;
    let down = true;
    const releaser = leaseReleaser(
      async () => {
        calls += 1;
        if (down) throw lost();
      },
      () => Date.now() + 60_000,
    );
    await expect(releaser.release()).rejects.toThrow(/Connection terminated/);
    await expect(releaser.release()).rejects.toThrow(/Connection terminated/);
    expect(calls).toBe(2);
    down = false;
    await releaser.release();
    expect(calls).toBe(3);
    await releaser.release(); // released: nothing more to do
    expect(calls).toBe(3);
  });

  it("a failed release is retried in the background until it lands, with a backoff", async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const releaser = leaseReleaser(
      async () => {
        attempts.push(Date.now());
        if (attempts.length < 4) throw lost();
      },
      () => Date.now() + 60_000,
    );
    await expect(releaser.release()).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS * 20);
    expect(attempts).toHaveLength(4);
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
    expect(gaps).toEqual([FIRST_RETRY_MS, FIRST_RETRY_MS * 2, FIRST_RETRY_MS * 4]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toHaveLength(4); // it landed: no more attempts
  });

  it("stops retrying once the lease would have run out anyway", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const expiry = Date.now() + 3_000;
    const releaser = leaseReleaser(
      async () => {
        calls += 1;
        throw lost();
      },
      () => expiry,
    );
    await expect(releaser.release()).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toBe(3); // at 0, 500 and 1500 ms; the next (3500 ms) would come after the expiry
    expect(vi.getTimerCount()).toBe(0);
  });
});
