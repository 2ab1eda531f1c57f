// The time box of planning one command line: parsing, walking and checking stop when it is spent, so no line (up to
// the 64 KB limit) holds the event loop for long. A line that needs more is refused with a clear message.

import { threadCpuMicros } from "./thread-cpu-time.js";

/** Planning one line (parse, walk, check) stops after this many milliseconds of the thread's CPU time. */
export const PLAN_TIME_BOX_MS = 20;

/** The message of a line refused because checking it took longer than the time box. */
export const PLAN_TIME_BOX_MESSAGE = `the line takes longer than ${PLAN_TIME_BOX_MS} ms to check; split it into shorter commands`;

/** How many calls of {@link PlanBudget.spent} read the clock once (a read costs about 1 µs). */
const READ_EVERY = 4;

/**
 * A deadline in CPU time of the planning thread: on a busy machine the wall clock also counts time the thread waited
 * for a core, and the process's CPU time counts other threads (garbage collection), neither of which says how long
 * the line held the event loop's thread; its own CPU time does.
 */
export class PlanBudget {
  /** When the box started: at the first {@link PlanBudget.spent} (work done before it, a warm-up, is not the line's). */
  private start: number | undefined;
  private readonly limitMicros: number;
  private calls = 0;
  private spentOnce = false;

  constructor(milliseconds: number = PLAN_TIME_BOX_MS) {
    this.limitMicros = milliseconds * 1000;
  }

  /** True once the time box is spent (and from then on). */
  spent(): boolean {
    if (this.spentOnce) return true;
    this.start ??= threadCpuMicros();
    this.calls += 1;
    if (this.calls % READ_EVERY !== 0) return false;
    if (threadCpuMicros() - this.start > this.limitMicros) this.spentOnce = true;
    return this.spentOnce;
  }
}
