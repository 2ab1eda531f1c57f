import { describe, expect, it } from "vitest";
import { createLimiter, mapLimit } from "./concurrency-limit.js";

/** Runs three tasks on a limit of 1, submitting the third `offset` microtasks after the first one finishes. */
async function peakWithLateSubmission(offset: number): Promise<number> {
  const limited = createLimiter(1);
  let running = 0;
  let peak = 0;
  const track = (until: Promise<unknown>) => async () => {
    running++;
    peak = Math.max(peak, running);
    await until;
    running--;
  };
  let releaseFirst!: () => void;
  const first = new Promise<void>((resolve) => (releaseFirst = resolve));
  const all = [limited(track(first)), limited(track(new Promise((resolve) => setTimeout(resolve, 1))))];
  await new Promise((resolve) => setTimeout(resolve, 0));
  releaseFirst();
  for (let i = 0; i < offset; i++) await Promise.resolve();
  all.push(limited(track(new Promise((resolve) => setTimeout(resolve, 1)))));
  await Promise.all(all);
  return peak;
}

describe("createLimiter", () => {
  it("never runs more than the limit, even for a task submitted just as a slot is handed over", async () => {
    // The walker's former copy decremented, woke the next waiter and let it increment later: a task submitted in
    // between (offset 2 here) ran beside the woken one, two tasks on a limit of 1.
    const peaks: number[] = [];
    for (let offset = 0; offset < 8; offset++) peaks.push(await peakWithLateSubmission(offset));
    expect(peaks).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("runs tasks in submission order and passes results and errors through", async () => {
    const limited = createLimiter(2);
    const order: number[] = [];
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((n) =>
        limited(async () => {
          order.push(n);
          if (n === 3) throw new RangeError("three");
          return n * 10;
        }),
      ),
    );
    expect(order).toEqual([1, 2, 3, 4]);
    expect(results.map((result) => (result.status === "fulfilled" ? result.value : "failed"))).toEqual([
      10,
      20,
      "failed",
      40,
    ]);
  });
});

describe("mapLimit", () => {
  it("keeps at most `limit` running and visits every item once", async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await mapLimit([...Array(50).keys()], 4, async (item) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, item % 3));
      seen.push(item);
      running--;
    });
    expect(peak).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
  });

  it("after a failure starts no further item, and throws only when the running ones have settled", async () => {
    const started: number[] = [];
    let finished = 0;
    const outcome = mapLimit([...Array(20).keys()], 2, async (item) => {
      started.push(item);
      if (item === 1) throw new RangeError("item 1");
      await new Promise((resolve) => setTimeout(resolve, 5));
      finished++;
    });
    await expect(outcome).rejects.toThrow("item 1");
    // Item 0 was running when item 1 failed: it finished before the call threw, and nothing started after it.
    expect(started).toEqual([0, 1]);
    expect(finished).toBe(1);
  });
});
