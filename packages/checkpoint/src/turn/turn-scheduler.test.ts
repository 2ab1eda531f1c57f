import { describe, expect, it, vi } from "vitest";
import { TurnsBusyError } from "../errors/turns-busy-error.js";
import { createTurnScheduler, type TurnPriority, type TurnScheduler } from "./turn-scheduler.js";

/** A turn the test ends by hand; `started` records the order turns began in. */
function turns(scheduler: TurnScheduler) {
  const started: string[] = [];
  const finish = new Map<string, { resolve: (value: string) => void; reject: (error: Error) => void }>();
  const settled = new Map<string, { ok: boolean; value: unknown }>();
  const submit = (name: string, priority: TurnPriority = "normal") => {
    const result = scheduler.run(
      () =>
        new Promise<string>((resolve, reject) => {
          started.push(name);
          finish.set(name, { resolve, reject });
        }),
      { priority },
    );
    result.then(
      (value) => settled.set(name, { ok: true, value }),
      (error: unknown) => settled.set(name, { ok: false, value: error }),
    );
    return result;
  };
  const end = async (name: string, error?: Error) => {
    const turn = finish.get(name);
    if (!turn) throw new Error(`${name} has not started`);
    if (error) turn.reject(error);
    else turn.resolve(`${name} done`);
    await flush();
  };
  return { started, settled, submit, end };
}

/** Lets every settled promise's callbacks run (no timers). */
const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe("createTurnScheduler", () => {
  it("runs at most `concurrency` turns at once and starts the waiting ones first come, first served", async () => {
    const scheduler = createTurnScheduler({ concurrency: 2, maxQueued: 10 });
    const t = turns(scheduler);
    for (const name of ["a", "b", "c", "d"]) void t.submit(name);
    await flush();
    expect(t.started).toEqual(["a", "b"]);
    expect([scheduler.running, scheduler.queued]).toEqual([2, 2]);
    await t.end("b");
    expect(t.started).toEqual(["a", "b", "c"]);
    expect(t.settled.get("b")).toEqual({ ok: true, value: "b done" });
    await t.end("a");
    await t.end("c");
    await t.end("d");
    expect(t.started).toEqual(["a", "b", "c", "d"]);
    expect([scheduler.running, scheduler.queued]).toEqual([0, 0]);
  });

  it("starts resumed turns before every waiting normal turn", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 10 });
    const t = turns(scheduler);
    void t.submit("n1");
    void t.submit("n2");
    void t.submit("n3");
    void t.submit("r1", "resumed");
    void t.submit("r2", "resumed");
    await flush();
    expect(t.started).toEqual(["n1"]);
    for (const name of ["n1", "r1", "r2", "n2"]) await t.end(name);
    expect(t.started).toEqual(["n1", "r1", "r2", "n2", "n3"]);
  });

  it("refuses a turn at once with TurnsBusyError when `maxQueued` wait, without running it", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 2 });
    const t = turns(scheduler);
    void t.submit("a");
    void t.submit("b");
    void t.submit("c");
    const refused = t.submit("d");
    await expect(refused).rejects.toSatisfy(
      (error: unknown) => TurnsBusyError.isInstance(error) && error.running === 1 && error.queued === 2,
    );
    await expect(refused).rejects.toThrow(
      "this process is serving 1 turns with 2 waiting (at most 2 may wait); the turn did not run: retry it with the same message id after about 3000 ms",
    );
    expect(((await refused.catch((error: unknown) => error)) as TurnsBusyError).code).toBe("turns-busy");
    await t.end("a");
    void t.submit("e"); // room again once one started
    await flush();
    expect([scheduler.running, scheduler.queued]).toEqual([1, 2]);
    for (const name of ["b", "c", "e"]) await t.end(name);
    expect(t.started).toEqual(["a", "b", "c", "e"]);
  });

  it("a resumed turn takes the place of the newest waiting normal turn; a queue full of resumed turns refuses it", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 2 });
    const t = turns(scheduler);
    void t.submit("a");
    void t.submit("n1");
    const displaced = t.submit("n2");
    void t.submit("r1", "resumed");
    await expect(displaced).rejects.toThrow(/a resumed turn took its place/);
    expect(t.settled.get("n1")).toBeUndefined(); // the newest waiting normal turn goes first, the older one stays
    void t.submit("r2", "resumed");
    await flush();
    expect(t.settled.get("n1")?.ok).toBe(false);
    const refused = t.submit("r3", "resumed");
    await expect(refused).rejects.toThrow(/at most 2 may wait/);
    await t.end("a");
    await t.end("r1");
    await t.end("r2");
    expect(t.started).toEqual(["a", "r1", "r2"]);
  });

  it("resumed turns may take `resumedHeadroom` slots beyond `concurrency`; normal turns never do", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 5, resumedHeadroom: 2 });
    const t = turns(scheduler);
    void t.submit("n1");
    void t.submit("n2");
    void t.submit("r1", "resumed");
    void t.submit("r2", "resumed");
    void t.submit("r3", "resumed");
    await flush();
    expect(t.started).toEqual(["n1", "r1", "r2"]);
    expect([scheduler.running, scheduler.queued]).toEqual([3, 2]);
    await t.end("n1"); // 2 running: the waiting resumed turn may start, the normal one may not
    expect(t.started).toEqual(["n1", "r1", "r2", "r3"]);
    await t.end("r1");
    await t.end("r2");
    expect(t.started).toEqual(["n1", "r1", "r2", "r3"]); // still 1 running: no room for a normal turn
    await t.end("r3");
    expect(t.started).toEqual(["n1", "r1", "r2", "r3", "n2"]);
  });

  it("with pauseForResumed, normal turns running do not take resumed turns' slots; without it they do", async () => {
    const scheduler = createTurnScheduler({ concurrency: 2, maxQueued: 5, pauseForResumed: true });
    const t = turns(scheduler);
    void t.submit("n1");
    void t.submit("n2");
    void t.submit("r1", "resumed");
    void t.submit("r2", "resumed");
    void t.submit("r3", "resumed"); // 2 resumed run at most (concurrency + resumedHeadroom 0)
    void t.submit("n3");
    await flush();
    expect(t.started).toEqual(["n1", "n2", "r1", "r2"]);
    await t.end("r1");
    expect(t.started).toEqual(["n1", "n2", "r1", "r2", "r3"]);
    await t.end("n1");
    expect(t.started).toEqual(["n1", "n2", "r1", "r2", "r3"]); // 3 running: no slot for a normal turn
    await t.end("r2");
    expect(t.started).toEqual(["n1", "n2", "r1", "r2", "r3"]); // n2 and r3 run: still none
    await t.end("r3");
    expect(t.started).toEqual(["n1", "n2", "r1", "r2", "r3", "n3"]);

    const control = turns(createTurnScheduler({ concurrency: 2, maxQueued: 5 }));
    void control.submit("n1");
    void control.submit("n2");
    void control.submit("r1", "resumed");
    await flush();
    expect(control.started).toEqual(["n1", "n2"]);
  });

  it("with resumedAlone no normal turn starts while a resumed turn runs or waits, though slots are free", async () => {
    const scheduler = createTurnScheduler({ concurrency: 3, maxQueued: 5, resumedAlone: true });
    const t = turns(scheduler);
    void t.submit("n1");
    void t.submit("r1", "resumed");
    void t.submit("n2"); // 2 of 3 slots taken, but a resumed turn runs
    await flush();
    expect(t.started).toEqual(["n1", "r1"]);
    expect([scheduler.running, scheduler.queued]).toEqual([2, 1]);
    await t.end("n1");
    expect(t.started).toEqual(["n1", "r1"]); // a slot more, still held back
    void t.submit("r2", "resumed");
    await flush();
    expect(t.started).toEqual(["n1", "r1", "r2"]); // resumed turns still start
    await t.end("r1");
    expect(t.started).toEqual(["n1", "r1", "r2"]);
    await t.end("r2");
    expect(t.started).toEqual(["n1", "r1", "r2", "n2"]); // the last resumed turn ended
    void t.submit("n3");
    await flush();
    expect(t.started).toEqual(["n1", "r1", "r2", "n2", "n3"]);

    // without it, the same normal turn starts beside the resumed one (the control)
    const control = turns(createTurnScheduler({ concurrency: 3, maxQueued: 5 }));
    void control.submit("n1");
    void control.submit("r1", "resumed");
    void control.submit("n2");
    await flush();
    expect(control.started).toEqual(["n1", "r1", "n2"]);
  });

  it("with maxQueued 0 runs what fits and refuses the rest", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 0 });
    const t = turns(scheduler);
    void t.submit("a");
    await expect(t.submit("b", "resumed")).rejects.toThrow(TurnsBusyError);
    await t.end("a");
    void t.submit("c");
    await flush();
    expect(t.started).toEqual(["a", "c"]);
  });

  it("a failing turn (rejected or thrown) rejects its caller and frees its slot", async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 5 });
    const t = turns(scheduler);
    void t.submit("a");
    const thrown = scheduler.run(() => {
      throw new Error("sync failure");
    });
    void t.submit("b");
    await flush();
    await t.end("a", new Error("model down"));
    expect(t.settled.get("a")).toEqual({ ok: false, value: new Error("model down") });
    await expect(thrown).rejects.toThrow("sync failure");
    await flush();
    expect(t.started).toEqual(["a", "b"]);
    expect(scheduler.running).toBe(1);
  });

  it('with admission "refuse" a normal turn past `concurrency` is refused at once, never queued', async () => {
    const scheduler = createTurnScheduler({ concurrency: 2, maxQueued: 10, admission: "refuse" });
    const t = turns(scheduler);
    void t.submit("a");
    void t.submit("b");
    const refused = t.submit("c");
    await expect(refused).rejects.toSatisfy(
      (error: unknown) =>
        TurnsBusyError.isInstance(error) &&
        error.retryable &&
        error.running === 2 &&
        error.queued === 0 &&
        error.retryAfterMs >= 100 &&
        error.message.includes("2 turns in flight, and normal turns do not wait"),
    );
    expect(scheduler.queued).toBe(0); // maxQueued 10 does not matter: nothing waited
    await t.end("a");
    void t.submit("c"); // the retry, once a slot is free
    await flush();
    expect(t.started).toEqual(["a", "b", "c"]);
  });

  it('with admission "refuse" resumed turns are always admitted and start before anything submitted later', async () => {
    const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 0, admission: "refuse" });
    const t = turns(scheduler);
    void t.submit("n1");
    // maxQueued 0 refuses nothing resumed: they wait, first come, first served
    void t.submit("r1", "resumed");
    void t.submit("r2", "resumed");
    await flush();
    expect(scheduler.queued).toBe(2);
    await expect(t.submit("n2")).rejects.toThrow(TurnsBusyError);
    await t.end("n1");
    expect(t.started).toEqual(["n1", "r1"]);
    await expect(t.submit("n3")).rejects.toThrow(TurnsBusyError); // the slot went to r1, r2 still waits
    await t.end("r1");
    await t.end("r2");
    void t.submit("n4");
    await flush();
    expect(t.started).toEqual(["n1", "r1", "r2", "n4"]);
  });

  it('with admission "refuse" and resumedAlone a normal turn is refused while a resumed one runs', async () => {
    const scheduler = createTurnScheduler({ concurrency: 4, admission: "refuse", resumedAlone: true });
    const t = turns(scheduler);
    void t.submit("r1", "resumed");
    await expect(t.submit("n1")).rejects.toThrow("no normal turn starts while a resumed one runs or waits");
    await t.end("r1");
    void t.submit("n2");
    await flush();
    expect(t.started).toEqual(["r1", "n2"]);
  });

  it("the retry-after hint follows the turns' mean time and grows with the turns waiting", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const scheduler = createTurnScheduler({ concurrency: 1, maxQueued: 1 });
      const t = turns(scheduler);
      void t.submit("a");
      void t.submit("b");
      const hint = async (name: string) =>
        ((await t.submit(name).catch((error: unknown) => error)) as TurnsBusyError).retryAfterMs;
      // no turn has ended yet: 1 s assumed, times (1 + 1 waiting / 1 slot)
      expect(await hint("c")).toBe(2000);
      vi.advanceTimersByTime(6000);
      await t.end("a"); // a took 6 s: the mean moves a fifth of the way, to 2 s; b runs, nothing waits
      void t.submit("d");
      await flush();
      expect(await hint("e")).toBe(4000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("checks its options", () => {
    expect(() => createTurnScheduler({ concurrency: 0 })).toThrow(
      "Invalid option 'concurrency': must be a positive integer no larger than 100000",
    );
    expect(() => createTurnScheduler({ maxQueued: -1 })).toThrow(
      "Invalid option 'maxQueued': must be a non-negative integer no larger than 1000000",
    );
    expect(() => createTurnScheduler("fast" as never)).toThrow("must be an object");
    expect(() => createTurnScheduler({ resumedHeadroom: 1.5 })).toThrow("Invalid option 'resumedHeadroom'");
    expect(() => createTurnScheduler({ admission: "drop" as never })).toThrow(
      "Invalid option 'admission': must be 'queue' or 'refuse'",
    );
    const scheduler = createTurnScheduler();
    expect(() => scheduler.run(async () => 1, { priority: "urgent" as never })).toThrow(
      "Invalid option 'priority': must be 'resumed' or 'normal'",
    );
  });
});
