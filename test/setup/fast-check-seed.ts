// Every fast-check property runs from one fixed seed, so a run of the suite is a function of the code alone: a
// property that fails, fails on every run and on every machine, and one that passes cannot turn red by luck.
// FC_SEED=<integer> runs them from another seed; FC_SEED=random from a new one each time (to explore; fast-check
// prints the seed and the path of a failure to replay it).
import fc from "fast-check";

const DEFAULT_SEED = 20261129;

/** The seed of this run's properties, from FC_SEED; undefined when FC_SEED asks for a random one. */
export function propertySeed(value = process.env.FC_SEED): number | undefined {
  if (value === undefined || value === "") return DEFAULT_SEED;
  if (value === "random") return undefined;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got '${value}'`);
  return seed;
}

const seed = propertySeed();
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
