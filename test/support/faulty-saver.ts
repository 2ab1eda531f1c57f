import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** Where a write fails: before it reaches the store (lost), or after it was stored (the caller never hears back). */
export type WriteFault = "before" | "after";

/** The crash a faulty saver simulates. */
export class SimulatedCrash extends Error {
  constructor(write: number, fault: WriteFault) {
    super(`simulated crash ${fault} write ${write}`);
  }
}

/**
 * A view of `inner` whose `failAt`-th write (`put` or `putWrites`, counted from 0) fails `fault` the store, and every
 * later write too (the process is gone); reads pass through. `writes` counts the writes attempted.
 */
export function faultySaver(inner: BaseCheckpointSaver, failAt: number, fault: WriteFault) {
  const state = { writes: 0, crashed: false };
  const write = async <T>(run: () => Promise<T>): Promise<T> => {
    const index = state.writes++;
    if (state.crashed || index < failAt) {
      if (state.crashed) throw new SimulatedCrash(index, fault);
      return run();
    }
    state.crashed = true;
    if (fault === "before") throw new SimulatedCrash(index, fault);
    await run();
    throw new SimulatedCrash(index, fault);
  };
  const saver = Object.create(inner) as BaseCheckpointSaver;
  saver.put = (...args) => write(() => inner.put(...args));
  saver.putWrites = (...args) => write(() => inner.putWrites(...args));
  return { saver, state };
}
