import { execFileSync } from "node:child_process";

/** Creates a named pipe (FIFO) with the system's mkfifo. */
export function mkfifoSync(path: string): void {
  execFileSync("mkfifo", [path]);
}
