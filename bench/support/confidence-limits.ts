// The limits a confidence rule is held to, per query set: the share of right first results it marks confident, the
// share of real requests it marks confident with a wrong first result, the share of off-topic requests it marks.

/** One scored request: its set, whether nothing should fit it, whether its first result is right. */
export interface LabelledRow {
  set: string;
  offTopic: boolean;
  right: boolean;
}

/** The two limits a threshold must meet on every set. */
export interface ConfidenceLimits {
  offTopic: number;
  wrong: number;
}

/** Share of right first results confident, of real requests confident and wrong, of off-topic requests confident. */
export function confidenceShares<R extends LabelledRow>(subset: readonly R[], confident: (row: R) => boolean) {
  const real = subset.filter((row) => !row.offTopic);
  const right = real.filter((row) => row.right);
  const off = subset.filter((row) => row.offTopic);
  return {
    confidentRight: right.filter(confident).length / Math.max(1, right.length),
    wrong: real.filter((row) => !row.right && confident(row)).length / Math.max(1, real.length),
    offTopic: off.filter(confident).length / Math.max(1, off.length),
  };
}

/** The least threshold (0.5 upwards, steps of 0.0025) whose rule meets both limits on every set of `subset`; else 1. */
export function leastThreshold<R extends LabelledRow>(
  subset: readonly R[],
  confidentAt: (row: R, threshold: number) => boolean,
  limits: ConfidenceLimits,
): number {
  const bySet = [...new Set(subset.map((row) => row.set))].map((label) => subset.filter((row) => row.set === label));
  for (let threshold = 0.5; threshold < 1; threshold += 0.0025) {
    const ok = bySet.every((own) => {
      const s = confidenceShares(own, (row) => confidentAt(row, threshold));
      return s.offTopic <= limits.offTopic + 1e-9 && s.wrong <= limits.wrong + 1e-9;
    });
    if (ok) return threshold;
  }
  return 1;
}
