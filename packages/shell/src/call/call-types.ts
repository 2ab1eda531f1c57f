// What each step of one run_skill_script / shell call hands to the next (see run-command-call.ts for the pipeline).
import type { RunnableConfig } from "@langchain/core/runnables";
import type { ArtifactStore } from "../artifacts/artifact-store.js";
import type { CommandPlan, CommandSkill } from "../policy/command-check-types.js";
import type { CommandCallInput, OutputsManifest } from "./command-call-input.js";
import type { SkippedAttachment } from "../workspace/attachment-staging.js";
import type { StagedInput } from "../workspace/input-sources.js";
import type { OutputMatcher } from "../workspace/output-globs.js";

/** The skill a call runs in (run_skill_script) and the loaded skills visible to it. */
export interface CallSkills {
  skill?: CommandSkill;
  loaded: CommandSkill[];
}

/** The span attributes every stage of a call reports. */
export interface CallSpan {
  tool: string;
  skill?: string;
}

/** A call whose skill and every input were checked before anything ran. */
export interface ValidatedCall extends CallSkills {
  input: CommandCallInput;
  config: RunnableConfig;
  threadId: string;
  outputs: OutputsManifest;
  /** Which `out/` files are reported. */
  match: OutputMatcher;
  /** Which reported file is the primary output, when one was named. */
  primary?: OutputMatcher;
  /** Where `save_as_artifacts` saves and `artifact://` inputs load from; undefined when there is none. */
  artifacts?: ArtifactStore;
  /** Why `save_as_artifacts` will save nothing, when it will not. */
  artifactsWarning?: string;
  span: CallSpan;
}

/** A validated call with its workspace, its skill's environment and the checked plan of its line. */
export interface PlannedCall extends ValidatedCall {
  workspaceDir: string;
  /** Host folder of the skill's own environment (first on PATH), when it has one. */
  environmentDir?: string;
  plan: CommandPlan;
  /** The line as shown to the model and the approver (paths as the command sees them). */
  display: string;
}

/** A planned (and approved) call whose files are in its workspace. */
export interface StagedCall extends PlannedCall {
  attachmentsSkipped: SkippedAttachment[];
  /** Host path of this run's own folder under the workspace's `runs/` (`RUN_DIR`). */
  runDir: string;
  /** The inputs and attachments staged for this call (reported as `staged_inputs`). */
  stagedInputs: StagedInput[];
  /** The editor variables of `editor_text`, when given. */
  editorEnv?: Record<string, string>;
}
