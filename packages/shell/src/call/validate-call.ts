import type { RunnableConfig } from "@langchain/core/runnables";
import { artifactStoreFor } from "./command-artifacts.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { CommandCallInput } from "./command-call-input.js";
import { compileOutputGlobs } from "../workspace/output-globs.js";
import { normalizeOutputs } from "./outputs-manifest.js";
import { isOneCallThread } from "../workspace/thread-workspaces.js";
import type { ValidatedCall } from "./call-types.js";
import { savesArtifacts } from "./persist-call.js";
import { skillContext } from "./skill-context.js";

/** Why `save_as_artifacts` will save nothing (no thread id, no store), when it was asked for and will not. */
function artifactsWarningOf(asked: boolean | undefined, hasStore: boolean, threadId: string): string | undefined {
  if (!asked || hasStore) return undefined;
  // with nowhere to save, the command still runs and its files are returned, with a warning (as trpc-agent-go does)
  return isOneCallThread(threadId)
    ? "save_as_artifacts: not saved, the run has no thread id (configurable.thread_id); the files are returned only"
    : "save_as_artifacts: not saved, no artifact store is configured (compile the graph with a store, or give the shell hook artifacts.store); the files are returned only";
}

/**
 * The validate step: the skill (found, read), then every input (output globs, the primary output, the timeout), so
 * that a bad glob or timeout never surfaces after the command ran.
 */
export function validateCall(
  runtime: RuntimeView<"agentId" | "artifacts" | "loadedSkills" | "requireSkillRead", "catalog", "seenLoaded">,
  input: CommandCallInput,
  config: RunnableConfig,
  threadId: string,
): ValidatedCall | Refusal {
  const context = skillContext(runtime, input, config);
  if ("ok" in context) return context;
  const manifest = normalizeOutputs(input.outputs as Record<string, unknown> | undefined);
  if (!manifest.ok) return refusal("invalid-input", manifest.message);
  const { outputs } = manifest;
  const globs = compileOutputGlobs(outputs.globs ?? input.output_globs);
  if (!globs.ok) return refusal("invalid-glob", globs.message);
  const primary =
    outputs.primary === undefined ? undefined : compileOutputGlobs([outputs.primary.replace(/^out\//, "")]);
  if (primary && !primary.ok) return refusal("invalid-glob", primary.message);
  // a call without a thread id has no artifact namespace: it neither loads nor saves any
  const artifacts = isOneCallThread(threadId) ? undefined : artifactStoreFor(runtime, config);
  const artifactsWarning = artifactsWarningOf(savesArtifacts(runtime, outputs), artifacts !== undefined, threadId);
  if (input.timeout_seconds !== undefined && !(Number.isFinite(input.timeout_seconds) && input.timeout_seconds > 0))
    return refusal("invalid-input", "timeout_seconds must be a positive number");
  return {
    ...context,
    input,
    config,
    threadId,
    outputs,
    match: globs.match,
    ...(primary?.ok ? { primary: primary.match } : {}),
    ...(artifacts ? { artifacts } : {}),
    ...(artifactsWarning !== undefined ? { artifactsWarning } : {}),
    span: { tool: input.tool, ...(context.skill ? { skill: context.skill.name } : {}) },
  };
}
