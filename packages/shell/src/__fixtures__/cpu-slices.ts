// A probe of how long the event loop's thread runs without giving the loop a turn, counted in the thread's own CPU
// time: on a loaded machine the wall clock also counts waiting for a core, which no code can bound; CPU time can.
import { threadCpuMicros } from "../command/thread-cpu-time.js";

/**
 * Runs `work` (synchronous, or a promise that yields now and then) and returns the longest stretch of this thread's
 * CPU time, in milliseconds, between two turns of the event loop (a `setImmediate` ticker marks each turn).
 */
export async function longestCpuSlice(work: () => unknown): Promise<number> {
  let longest = 0;
  let last = threadCpuMicros();
  let running = true;
  const tick = () => {
    const now = threadCpuMicros();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  await new Promise<void>((resolve) => setImmediate(resolve));
  last = threadCpuMicros();
  setImmediate(tick);
  try {
    await work();
  } finally {
    running = false;
  }
  tick();
  return longest / 1000;
}

/**
 * The least of up to `tries` measurements of {@link longestCpuSlice}, stopping at the first within `bound`. Other work
 * on the machine (a busy sibling hyperthread, shared caches, a collection the heap happened to need) only adds CPU time
 * to a slice, so work whose slice exceeds the bound every time exceeds it by itself.
 */
export async function leastLongestCpuSlice(work: () => unknown, bound: number, tries = 3): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < tries && least > bound; attempt += 1)
    least = Math.min(least, await longestCpuSlice(work));
  return least;
}
