/** The skill a command runs for (run_skill_script). */
export interface CommandSkill {
  name: string;
  dir: string;
  allowedTools: readonly string[];
}

/** What to check: the command line and where it runs. */
export interface CommandCheckInput {
  command: string;
  /** `skill`: run_skill_script (relative executables resolve in the skill folder); `shell`: the general shell tool. */
  mode: "skill" | "shell";
  skill?: CommandSkill;
  /** Skills loaded now: their `Bash(...)` grants extend the allow list. */
  loadedSkills: readonly CommandSkill[];
  /** Host path of the thread's workspace (need not exist yet for {@link preflightCommand}). */
  workspaceDir: string;
  /** Working directory relative to the workspace. */
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}
