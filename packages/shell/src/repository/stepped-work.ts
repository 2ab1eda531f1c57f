// Work written as a generator that pauses now and then (`yield`), run either in one call or in slices of this
// thread's CPU time with a turn of the event loop between them: one piece of code for both, and no slice holds the
// loop for longer than its budget plus one step.
import { threadCpuMicros } from "../command/thread-cpu-time.js";

/** Work that pauses between steps and returns `T` when done. */
export type SteppedWork<T> = Generator<void, T, void>;

/** Runs every step of `work` at once and returns its result. */
export function runAllSteps<T>(work: SteppedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs `work` in slices of at most `sliceMs` ms of this thread's CPU (plus one step), yielding to the event loop between them. */
export async function runInSlices<T>(work: SteppedWork<T>, sliceMs: number): Promise<T> {
  let started = threadCpuMicros();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (threadCpuMicros() - started >= sliceMs * 1000) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = threadCpuMicros();
    }
  }
}
