// The clock file timestamps come from. The kernel stamps a write with its coarse clock, which lags the precise clock
// `Date.now()` reads by up to one timer tick (10 ms on a kernel built with HZ=100): a file a command writes right
// after `Date.now()` can carry an earlier mtime, and a comparison with any fixed slack is a guess at the tick. This
// reads "now" from the same clock: the mtime of an unnamed file this process writes (O_TMPFILE, nothing to clean up).
import { constants, fstatSync, openSync, writeSync } from "node:fs";
import os from "node:os";

/** Linux's O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`; not in fs.constants): an unnamed file in a folder's file system. */
const O_TMPFILE = 0o20200000;

/** Where no unnamed file can be made (not Linux, an old kernel): `Date.now()` less the longest common tick. */
const FALLBACK_SLACK_MS = 20;

/** The unnamed file of this thread (kept open for its life), null when it cannot be made. */
let clockFd: number | null | undefined;

function openClockFile(): number | null {
  if (process.platform !== "linux") return null;
  try {
    return openSync(os.tmpdir(), O_TMPFILE | constants.O_WRONLY, 0o600);
  } catch {
    return null;
  }
}

/** Now, as the file system stamps a file written now (ms): what a command's writes after this call are compared with. */
export function fileSystemNow(): number {
  clockFd ??= openClockFile();
  if (clockFd === null) return Date.now() - FALLBACK_SLACK_MS;
  writeSync(clockFd, "x", 0);
  return fstatSync(clockFd).mtimeMs;
}
