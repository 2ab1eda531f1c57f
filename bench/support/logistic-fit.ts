// A logistic regression fitted by Newton's method with a small ridge penalty (the bias is not penalised): enough for
// the three or four weights of the search's confidence model, with no dependency.

/** Weights, one per feature, then the bias. */
export type LogisticWeights = number[];

/** Probability of the positive class for one feature row. */
export function logisticProbability(weights: LogisticWeights, row: readonly number[]): number {
  let logit = weights[weights.length - 1]!;
  row.forEach((value, i) => (logit += weights[i]! * value));
  return 1 / (1 + Math.exp(-logit));
}

/** Solves `matrix · x = vector` by Gaussian elimination with partial pivoting (small dense systems). */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/** Fits weights to rows (features) and labels (1 = positive) by 50 Newton steps; `ridge` penalises the weights. */
export function fitLogistic(rows: readonly number[][], labels: readonly number[], ridge = 1e-4): LogisticWeights {
  const size = rows[0]!.length + 1;
  let weights: number[] = new Array<number>(size).fill(0);
  for (let step = 0; step < 50; step++) {
    const gradient = new Array<number>(size).fill(0);
    const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    rows.forEach((row, i) => {
      const x = [...row, 1];
      const p = logisticProbability(weights, row);
      for (let a = 0; a < size; a++) {
        gradient[a]! += ((p - labels[i]!) * x[a]!) / rows.length;
        for (let b = 0; b < size; b++) hessian[a]![b]! += (p * (1 - p) * x[a]! * x[b]!) / rows.length;
      }
    });
    for (let a = 0; a < size - 1; a++) {
      gradient[a]! += ridge * weights[a]!;
      hessian[a]![a]! += ridge;
    }
    hessian[size - 1]![size - 1]! += 1e-9;
    const delta = solve(hessian, gradient);
    weights = weights.map((w, i) => w - delta[i]!);
  }
  return weights;
}
