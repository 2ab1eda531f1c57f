import { z } from "zod";

/** The fields of the `outputs` manifest (see `outputs-manifest.ts` for the aliases it also accepts). */
export const outputsFields = {
  globs: z.array(z.string()).optional().describe("Globs relative to out/ (default: every new or changed file)."),
  max_files: z.number().int().positive().optional(),
  max_file_bytes: z.number().int().positive().optional(),
  max_total_bytes: z.number().int().positive().optional().describe("Inline text in all, at most."),
  inline: z
    .boolean()
    .optional()
    .describe("Return text content inline (default true); false = names, sizes and types only."),
  save_as_artifacts: z
    .boolean()
    .optional()
    .describe("Save the reported files as artifacts, referable later as artifact://<name>."),
  name_template: z
    .string()
    .optional()
    .describe("Artifact names: {name}, {stem} and {ext} stand for the file's (default '{name}')."),
  artifact_prefix: z.string().optional().describe("Put before every saved artifact's name."),
  force_save: z
    .boolean()
    .optional()
    .describe("Save a new version even when the bytes equal the newest one (default: reported unchanged)."),
  primary: z
    .string()
    .optional()
    .describe("The main result (a path like out/report.md or a glob): returned as primary_output."),
};

/** Fields shared by `run_skill_script` and `shell`. */
export const commandFields = {
  command: z
    .string()
    .describe(
      "A bash command line (pipes, &&, ;, redirections, $(...), loops work); every command in it is checked and the line runs with bash. $WORKSPACE, $OUT_DIR, $HOME and (for skills) $SKILL_DIR expand. eval, source, a program named by a variable and similar pieces that cannot be checked before running are refused or need approval.",
    ),
  cwd: z.string().optional().describe("Working directory relative to the workspace (default: the workspace root)."),
  stdin: z.string().optional().describe("Text written to the program's standard input."),
  timeout_seconds: z.number().positive().optional().describe("Stop the program after this many seconds (default 300)."),
  env: z
    .record(z.string(), z.string())
    .optional()
    .describe("Extra environment variables (PATH, LD_* and similar are refused)."),
  files: z
    .array(z.object({ path: z.string(), content: z.string() }))
    .optional()
    .describe("Files to write into the workspace first (paths relative to it, e.g. in/data.csv)."),
  output_globs: z
    .array(z.string())
    .optional()
    .describe(
      "Globs (relative to out/) of files to report after the run (default: every new or changed file in out/).",
    ),
  inputs: z
    .array(
      z.object({
        from: z.string(),
        to: z.string().optional(),
        pin: z.boolean().optional(),
        mode: z.string().optional().describe("'copy' (the default and the only mode: inputs are always copied)."),
      }),
    )
    .optional()
    .describe(
      "Files to stage first from elsewhere: skill://<skill>/<path>, workspace://<path>, artifact://<name>[@<version>] (saved by an earlier call), attachment://<name> (a file the user attached), host://<folder>/<path> (a host folder the app shares). 'to' defaults to in/<name>. pin: true on an artifact without a version keeps using the version first staged.",
    ),
  outputs: z
    .looseObject(outputsFields)
    .optional()
    .describe(
      "What to report after the run (overrides output_globs). trpc-agent-go's Go-style keys (Globs, MaxFiles, Save, ...) and 'save' are read as their snake_case names; any other key is refused.",
    ),
  interactive: z
    .boolean()
    .optional()
    .describe("Keep the program running for shell_session_write / shell_session_poll (for programs that prompt)."),
  editor_text: z
    .string()
    .optional()
    .describe(
      "For programs that open an editor ($EDITOR, e.g. 'git commit' without -m, 'crontab -e'): the text the editor saves.",
    ),
  pty: z
    .boolean()
    .optional()
    .describe("Run on a pseudo-terminal (for programs that need a terminal; output uses \\r\\n and echoes input)."),
};
