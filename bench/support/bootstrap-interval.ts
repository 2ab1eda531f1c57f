// A percentile bootstrap interval for a statistic of several independent samples: each sample is resampled with
// replacement (its own size), the statistic recomputed, and the interval read off the recomputed values. Seeded, so a
// run's interval can be recomputed from its saved samples.

/** Options of {@link bootstrapInterval}. */
export interface BootstrapOptions {
  /** Resampling rounds. @default 2000 */
  rounds?: number;
  /** Central share the interval holds. @default 0.9 */
  level?: number;
  /** Seed of the generator. @default 1 */
  seed?: number;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The [low, high] percentile bootstrap interval of `statistic` over `samples` (each resampled on its own). */
export function bootstrapInterval(
  samples: readonly (readonly number[])[],
  statistic: (resampled: number[][]) => number,
  options: BootstrapOptions = {},
): [number, number] {
  const { rounds = 2000, level = 0.9, seed = 1 } = options;
  const random = generator(seed);
  const values: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const resampled = samples.map((sample) =>
      Array.from({ length: sample.length }, () => sample[Math.floor(random() * sample.length)] as number),
    );
    values.push(statistic(resampled));
  }
  values.sort((a, b) => a - b);
  const at = (share: number) => values[Math.min(rounds - 1, Math.max(0, Math.floor(share * rounds)))] as number;
  return [at((1 - level) / 2), at((1 + level) / 2)];
}
