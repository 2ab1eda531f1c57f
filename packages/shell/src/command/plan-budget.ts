// The time box of planning one command line: parsing, walking and checking stop when it is spent, so no line (up to
// the 64 KB limit) holds the event loop for long. A line that needs more is refused with a clear message.
import { performance } from "node:perf_hooks";

/** Planning one line (parse, walk, check) stops after this many milliseconds of synchronous work. */
export const PLAN_TIME_BOX_MS = 25;

/** The message of a line refused because checking it took longer than the time box. */
export const PLAN_TIME_BOX_MESSAGE = `the line takes longer than ${PLAN_TIME_BOX_MS} ms to check; split it into shorter commands`;

/** A deadline read from the monotonic clock. */
export class PlanBudget {
  private readonly end: number;
  private spentOnce = false;

  constructor(milliseconds: number = PLAN_TIME_BOX_MS) {
    this.end = performance.now() + milliseconds;
  }

  /** True once the time box is spent (and from then on). */
  spent(): boolean {
    if (!this.spentOnce && performance.now() > this.end) this.spentOnce = true;
    return this.spentOnce;
  }
}
