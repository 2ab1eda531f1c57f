// The time box of planning one command line: parsing, walking and checking stop when it is spent, so no line (up to
// the 64 KB limit) holds the event loop for long. A line that needs more is refused with a clear message.

/** Planning one line (parse, walk, check) stops after this many milliseconds of the process's CPU time. */
export const PLAN_TIME_BOX_MS = 25;

/** The message of a line refused because checking it took longer than the time box. */
export const PLAN_TIME_BOX_MESSAGE = `the line takes longer than ${PLAN_TIME_BOX_MS} ms to check; split it into shorter commands`;

/** How many calls of {@link PlanBudget.spent} read the clock once. */
const READ_EVERY = 16;

/**
 * A deadline in CPU time (user + system) of the process: on a busy machine the wall clock also counts time the
 * process waited for a core, which says nothing about the work a line costs; CPU time does.
 */
export class PlanBudget {
  private readonly start = process.cpuUsage();
  private readonly limitMicros: number;
  private calls = 0;
  private spentOnce = false;

  constructor(milliseconds: number = PLAN_TIME_BOX_MS) {
    this.limitMicros = milliseconds * 1000;
  }

  /** True once the time box is spent (and from then on). */
  spent(): boolean {
    if (this.spentOnce) return true;
    this.calls += 1;
    if (this.calls % READ_EVERY !== 0) return false;
    const used = process.cpuUsage(this.start);
    if (used.user + used.system > this.limitMicros) this.spentOnce = true;
    return this.spentOnce;
  }
}
