// CPU time of the calling thread, precise to the microsecond: what a piece of synchronous work cost the event loop's
// thread, not counting time spent waiting for a core (wall clock) or other threads' work (the process's CPU time,
// which garbage collection and the thread pool inflate).
import { closeSync, openSync, readSync } from "node:fs";

/** The open `/proc/thread-self/schedstat` of this thread (module state is per thread), null when not available. */
let schedstat: number | null | undefined;
const buffer = Buffer.alloc(64);

function openSchedstat(): number | null {
  try {
    const fd = openSync("/proc/thread-self/schedstat", "r");
    if (readSync(fd, buffer, 0, buffer.length, 0) > 0) return fd;
    closeSync(fd);
  } catch {
    // not Linux, or /proc not mounted
  }
  return null;
}

/**
 * Microseconds of CPU this thread has run (Linux: the scheduler's own count, read in about 1 µs from a descriptor
 * kept open for the thread's life). Elsewhere: the process's user + system time.
 */
export function threadCpuMicros(): number {
  if (schedstat === undefined) schedstat = openSchedstat();
  if (schedstat !== null) {
    const length = readSync(schedstat, buffer, 0, buffer.length, 0);
    const text = buffer.toString("latin1", 0, length);
    return Number(text.slice(0, text.indexOf(" "))) / 1000;
  }
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}
