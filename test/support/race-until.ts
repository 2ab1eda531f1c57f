// Race tests without luck: a test that must observe a race runs rounds until the race is seen or a time bound passes.
// When the bound passes first (a loaded machine started the racer late, or the scheduler never interleaved), it prints
// "race not met" and the test goes on: its safety assertions still hold, only the proof that the race ran is missing.

/** How `raceUntil` ran. */
export interface RaceOutcome {
  met: boolean;
  rounds: number;
  elapsedMs: number;
}

/**
 * Runs `round` at least `minRounds` times, then on until `met()` is true; all of it within `timeBoundMs` from the start
 * (a slow machine runs fewer rounds, at least one, so the test still ends well inside its timeout). Logs `race not met: NAME (N
 * rounds in T ms)` when the bound passed without the race; never fails for it.
 */
export async function raceUntil(options: {
  name: string;
  minRounds: number;
  timeBoundMs: number;
  met: () => boolean;
  round: (index: number) => Promise<void> | void;
}): Promise<RaceOutcome> {
  const started = Date.now();
  let rounds = 0;
  const going = () => (rounds < options.minRounds || !options.met()) && Date.now() - started < options.timeBoundMs;
  while (rounds === 0 || going()) {
    await options.round(rounds);
    rounds += 1;
  }
  const outcome = { met: options.met(), rounds, elapsedMs: Date.now() - started };
  if (!outcome.met) {
    console.log(`race not met: ${options.name} (${outcome.rounds} rounds in ${outcome.elapsedMs} ms)`);
  }
  return outcome;
}
