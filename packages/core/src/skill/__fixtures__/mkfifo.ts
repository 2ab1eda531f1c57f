import { execFileSync } from "node:child_process";

/** Creates a named pipe (FIFO) with the system's mkfifo. */
export function makeFifo(path: string): void {
  execFileSync("mkfifo", [path]);
}
