// Bounded concurrency: the one limiter of the package (folder walks, skill loading).

/** Runs a task once fewer than the limit are running; tasks start in the order they were given. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A limiter letting at most `limit` tasks run at a time. A finishing task hands its slot straight to the next waiting
 * one, so a task submitted at that moment cannot slip in beside it (the limit holds exactly, not just eventually).
 * @example const io = createLimiter(64); await Promise.all(paths.map((path) => io(() => stat(path))));
 */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async (task) => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}

/**
 * Runs `run` on every item of a known list, at most `limit` at a time, as `limit` workers taking the next item (no
 * promise per waiting item: about ten times cheaper than queueing 10 000 items on a limiter). After a failure no further
 * item starts; once the running ones have settled, the first failure is thrown (nothing keeps running afterwards).
 */
export async function mapLimit<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      try {
        await run(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
