import { z } from "zod";

/** Fields shared by `run_skill_script` and `shell`. */
export const commandFields = {
  command: z.string().describe("One command line: a program and its arguments. Quotes work; pipes, ';', '&', redirections and $(...) are refused. $WORKSPACE, $OUT_DIR and (for skills) $SKILL_DIR expand."),
  cwd: z.string().optional().describe("Working directory relative to the workspace (default: the workspace root)."),
  stdin: z.string().optional().describe("Text written to the program's standard input."),
  timeout_seconds: z.number().positive().optional().describe("Stop the program after this many seconds (default 300)."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables (PATH, LD_* and similar are refused)."),
  files: z.array(z.object({ path: z.string(), content: z.string() })).optional().describe("Files to write into the workspace first (paths relative to it, e.g. in/data.csv)."),
  output_globs: z.array(z.string()).optional().describe("Globs (relative to out/) of files to report after the run (default: every new or changed file in out/)."),
  interactive: z.boolean().optional().describe("Keep the program running for shell_session_write / shell_session_poll (for programs that prompt)."),
  pty: z.boolean().optional().describe("Run on a pseudo-terminal (for programs that need a terminal; output uses \\r\\n and echoes input)."),
};
