// One run_skill_script / shell call as a pipeline of named steps, each handing a typed value to the next:
// validate → plan (workspace, skill environment, one parse, policy) → approve → stage → run → collect → persist.
// Any step may refuse; the refusal is what the model sees and nothing after it runs.
import type { RunnableConfig } from "@langchain/core/runnables";
import { loadBashParser } from "../command/bash-parser.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import { threadIdOf } from "../runtime/loaded-skill-names.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import type { CommandCallInput } from "./command-call-input.js";
import { oneCallThread } from "../workspace/thread-workspaces.js";
import { approvePlannedCall } from "./approve-call.js";
import { collectCall } from "./collect-call.js";
import { executionRequest } from "./execution-request.js";
import { persistCall } from "./persist-call.js";
import { planCall } from "./plan-call.js";
import { runCall } from "./run-call.js";
import { stageCall } from "./stage-call.js";
import { startSession } from "./start-session.js";
import { refusalPayload, resultPayload } from "./tool-payload.js";
import { validateCall } from "./validate-call.js";

export type { CommandCallInput, OutputsManifest } from "./command-call-input.js";

function isRefusal<T extends object>(value: T | Refusal): value is Refusal {
  return "ok" in value && value.ok === false;
}

/**
 * The whole life of one run_skill_script / shell call: skill and policy checks, requirements, approval interrupt,
 * staging, running (or starting a session), output collection. Returns the JSON the model sees.
 */
export async function runCommandCall(
  runtime: ShellRuntime,
  input: CommandCallInput,
  config: RunnableConfig,
): Promise<string> {
  const threadId = threadIdOf(config);
  if (threadId !== undefined) return runInThread(runtime, input, config, threadId);
  // no thread id: nothing ties this call to any other, so it shares nothing with them (not even another user's files)
  const refused = needsThread(input);
  if (refused) return refusalPayload(refusal("invalid-input", refused));
  const oneCall = oneCallThread();
  try {
    return await runInThread(runtime, input, config, oneCall);
  } finally {
    runtime.threads.stagedAttachments.delete(oneCall);
    runtime.threads.pinnedArtifacts.delete(oneCall);
    await runtime.services.workspaces.remove(oneCall);
  }
}

/** Why a call cannot run without a thread id (interactive sessions and artifacts outlive the call), if it cannot. */
function needsThread(input: CommandCallInput): string | undefined {
  const what = input.interactive
    ? "an interactive session"
    : input.inputs?.some((spec) => String(spec.from).startsWith("artifact://"))
      ? "an artifact:// input"
      : undefined;
  return what === undefined
    ? undefined
    : `${what} needs a thread id (configurable.thread_id): without one, each call runs in a workspace of its own that is removed after it`;
}

/** The pipeline of one call in a thread's workspace. */
async function runInThread(
  runtime: ShellRuntime,
  input: CommandCallInput,
  config: RunnableConfig,
  threadId: string,
): Promise<string> {
  await loadBashParser();
  const validated = validateCall(runtime, input, config, threadId);
  if (isRefusal(validated)) return refusalPayload(validated);
  const planned = await planCall(runtime, validated);
  if (isRefusal(planned)) return refusalPayload(planned);
  const approval = await approvePlannedCall(runtime, planned);
  if (isRefusal(approval)) return refusalPayload(approval);
  const staged = await stageCall(runtime, planned);
  if (isRefusal(staged)) return refusalPayload(staged);
  const request = executionRequest(runtime, staged, approval);
  if (isRefusal(request)) {
    await runtime.services.workspaces.removeRunFolderIfEmpty(staged.runDir);
    return refusalPayload(request);
  }
  if (input.interactive) return startSession(runtime, staged, request);
  const ran = await runCall(runtime, staged, request);
  const collected = await collectCall(runtime, staged, ran);
  const saved = await persistCall(runtime, staged, collected);
  return resultPayload(ran.result, {
    command: staged.display,
    executor: runtime.services.executor.name,
    collected: collected.collected,
    primaryOutput: collected.primaryOutput,
    artifacts: saved,
    attachmentsSkipped: staged.attachmentsSkipped,
    stagedInputs: staged.stagedInputs,
    emptyFromFailure: collected.emptyFromFailure,
    artifactsWarning: staged.artifactsWarning,
  });
}
