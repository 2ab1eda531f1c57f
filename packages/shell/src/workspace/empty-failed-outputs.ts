import type { ExecutionResult } from "../executor/executor-types.js";
import type { CollectedFile, CollectedOutput } from "./collect-output-files.js";

/** The collected files of a run, with the empty ones a failed command left set apart. */
export interface SortedOutputs {
  collected: CollectedOutput;
  /** 0-byte files written by a command that failed (a redirect opened before the command died): not results. */
  emptyFromFailure: string[];
}

/** Whether the command did not finish well (non-zero exit, signal, timeout, output limit). */
export function commandFailed(result: ExecutionResult): boolean {
  return result.exitCode !== 0 || result.timedOut || result.killed || result.outputLimitExceeded;
}

/**
 * Sets apart the 0-byte files of a failed command: `> out/report.txt` creates the file before the program runs, so a
 * program that fails leaves an empty file that would otherwise be reported (and saved) as the result.
 */
export function setApartEmptyOutputs(result: ExecutionResult, collected: CollectedOutput): SortedOutputs {
  if (!commandFailed(result)) return { collected, emptyFromFailure: [] };
  const kept: CollectedFile[] = [];
  const empty: string[] = [];
  for (const file of collected.files) {
    if (file.size === 0) empty.push(file.path);
    else kept.push(file);
  }
  return { collected: { ...collected, files: kept }, emptyFromFailure: empty };
}
