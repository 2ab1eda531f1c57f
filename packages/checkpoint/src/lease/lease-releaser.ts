/** First wait before a failed release is tried again in the background; it doubles up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

/**
 * Ends a lease row so that a release that failed (database unreachable, a restart under way) is not forgotten: each
 * `release()` really tries (one attempt at a time, shared by concurrent callers) and rejects with the store's error;
 * after a failure the release is also retried in the background, with a backoff from FIRST_RETRY_MS to 5 s, until it
 * lands or `until()` (when the lease runs out anyway) has passed. The timers do not keep the process alive.
 * @param endRow Ends our lease row (the store's `release`).
 * @param until When retrying stops being useful (ms since epoch): the lease's expiry as last renewed.
 */
export function leaseReleaser(endRow: () => Promise<void>, until: () => number): { release(): Promise<void> } {
  let done = false;
  let attempt: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const endOnce = async (): Promise<void> => {
    try {
      await endRow();
      done = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    } finally {
      attempt = undefined;
    }
  };
  const tryOnce = (): Promise<void> => (attempt ??= endOnce());

  const retryLater = (delay: number) => {
    if (done || timer || Date.now() + delay >= until()) return;
    timer = setTimeout(() => {
      timer = undefined;
      tryOnce().catch(() => retryLater(Math.min(delay * 2, MAX_RETRY_MS)));
    }, delay);
    timer.unref();
  };

  return {
    async release() {
      if (done) return;
      try {
        await tryOnce();
      } catch (error) {
        retryLater(FIRST_RETRY_MS);
        throw error;
      }
    },
  };
}
