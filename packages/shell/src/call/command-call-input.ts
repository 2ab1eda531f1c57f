import type { InputSpec } from "../workspace/input-sources.js";

/** Input shared by `run_skill_script` and `shell`. */
export interface CommandCallInput {
  tool: "run_skill_script" | "shell";
  skill?: string;
  command: string;
  cwd?: string;
  stdin?: string;
  timeout_seconds?: number;
  env?: Record<string, string>;
  files?: Array<{ path: string; content: string }>;
  output_globs?: string[];
  inputs?: InputSpec[];
  outputs?: OutputsManifest;
  interactive?: boolean;
  pty?: boolean;
  editor_text?: string;
}

/** Per-call outputs manifest (see the tool schema). */
export interface OutputsManifest {
  globs?: string[];
  max_files?: number;
  max_file_bytes?: number;
  max_total_bytes?: number;
  inline?: boolean;
  save_as_artifacts?: boolean;
  name_template?: string;
  artifact_prefix?: string;
  force_save?: boolean;
  primary?: string;
}
