// A learned similarity between a request's and a skill's sentence vectors: a logistic model over their element-wise
// product (one weight per dimension, a weighted cosine), fitted by stochastic gradient descent with an L2 penalty.
// Scored out of set: each row's score comes from a model fitted on the rows of every other set.

/** One pair to score: its set, the two normalised vectors and whether the skill is the right one. */
export interface VectorPair {
  set: string;
  query: Float32Array;
  skill: Float32Array;
  label: number;
}

const EPOCHS = 15;
const RATE = 0.002;
const L2 = 1e-3;

/** Weights (one per dimension, then the bias) fitted to `pairs`; the shuffle is seeded so runs agree. */
function fit(pairs: readonly VectorPair[]): Float64Array {
  const size = pairs[0]!.query.length;
  const weights = new Float64Array(size + 1);
  const order = pairs.map((_, i) => i);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const at of order) {
      const pair = pairs[at]!;
      const error = score(weights, pair) - pair.label;
      for (let d = 0; d < size; d++)
        weights[d]! -= RATE * (error * pair.query[d]! * pair.skill[d]! * size + L2 * weights[d]!);
      weights[size]! -= RATE * error;
    }
  }
  return weights;
}

/** The model's probability for one pair (the product is scaled by the dimension, so a weight of 1 is the cosine). */
function score(weights: Float64Array, pair: VectorPair): number {
  const size = pair.query.length;
  let logit = weights[size]!;
  for (let d = 0; d < size; d++) logit += weights[d]! * pair.query[d]! * pair.skill[d]! * size;
  return 1 / (1 + Math.exp(-logit));
}

/** Every pair's score from a model fitted on the pairs of the other sets (`skip`: sets left out of every fit). */
export function outOfSetScores(pairs: readonly VectorPair[], skip: ReadonlySet<string> = new Set()): number[] {
  const scores = new Array<number>(pairs.length).fill(0);
  for (const label of new Set(pairs.map((pair) => pair.set))) {
    if (skip.has(label)) continue;
    const weights = fit(pairs.filter((pair) => pair.set !== label && !skip.has(pair.set)));
    pairs.forEach((pair, i) => {
      if (pair.set === label) scores[i] = score(weights, pair);
    });
  }
  return scores;
}
