/** A command line after preflight: argv as typed (variables expanded) and the host cwd it runs in. */
export interface ParsedCommand {
  argv: string[];
  cwd: string;
  /** The programs the line runs, outermost first (see command-layers.ts). */
  layers: string[][];
}
