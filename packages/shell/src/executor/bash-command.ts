import { resolveExecutable } from "../policy/program-resolution.js";

/**
 * The argv that runs a checked command line: `bash --noprofile --norc -c LINE` (no startup file is read; BASH_ENV and
 * ENV are never in a command's environment). `pipefail` is off, as in any bash: a line's exit status is its last
 * command's, the way skill authors wrote and tested their commands.
 */
export function bashCommand(line: string): string[] {
  return [resolveExecutable("bash") ?? "/bin/bash", "--noprofile", "--norc", "-c", line];
}
