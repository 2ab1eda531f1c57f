import { describe, expect, it } from "vitest";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { isConnectionLoss } from "./connection-errors.js";
import { retryOnceOnConnectionLoss } from "./retry-once.js";

const lost = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
const target = { url: "postgres://bob:***@db/x", delayMs: 1, scrub: (text: string) => text.replace("s3cret", "***") };

describe("retryOnceOnConnectionLoss", () => {
  it("retries once after a lost connection and returns the second result", async () => {
    let calls = 0;
    const result = await retryOnceOnConnectionLoss("a read", target, async () => {
      calls += 1;
      if (calls === 1) throw lost();
      return "ok";
    });
    expect([result, calls]).toEqual(["ok", 2]);
  });

  it("a second loss is a CheckpointerError connection-lost naming the operation; other errors pass through untouched", async () => {
    const error = await retryOnceOnConnectionLoss("a checkpoint write (thread t)", target, async () => {
      throw Object.assign(lost(), { message: "Connection terminated unexpectedly s3cret" });
    }).catch((e: unknown) => e);
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect((error as CheckpointerError).reason).toBe("connection-lost");
    expect((error as Error).message).toMatch(/during a checkpoint write \(thread t\), and again on the one retry/);
    expect((error as Error).message).not.toContain("s3cret");
    let calls = 0;
    const syntax = Object.assign(new Error("syntax error"), { code: "42601" });
    await expect(
      retryOnceOnConnectionLoss("x", target, async () => {
        calls += 1;
        throw syntax;
      }),
    ).rejects.toBe(syntax);
    expect(calls).toBe(1);
  });

  it("knows the driver's connection-loss shapes", () => {
    expect(isConnectionLoss(lost())).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("x"), { code: "08006" }))).toBe(true);
    expect(isConnectionLoss(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error(""), { errors: [{ code: "ECONNREFUSED" }] }))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  });
});
