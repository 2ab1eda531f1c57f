import { randomUUID } from "node:crypto";
import path from "node:path";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { ExecutionRequest } from "../executor/executor-types.js";
import type { CommandSkill } from "../policy/plan-command.js";
import { loadBashParser } from "../command/bash-parser.js";
import { approveCall, planCall } from "./plan-and-approve.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { InteractiveSession } from "../sessions/interactive-session.js";
import { collectOutputFiles } from "../workspace/collect-output-files.js";
import { loadedSkillNames, threadIdOf } from "../runtime/loaded-skill-names.js";
import { isOneCallThread, MAX_STAGED_BYTES, oneCallThread } from "../workspace/thread-workspaces.js";
import { planAttachmentStaging } from "../workspace/attachment-staging.js";
import { setApartEmptyOutputs } from "../workspace/empty-failed-outputs.js";
import { editorText } from "../workspace/editor-text.js";
import { withWorkspaceSpan } from "./workspace-spans.js";
import { needsApproval } from "../policy/approval-rules.js";
import { prepareSkillEnvironment } from "../environments/prepare-skill-environment.js";
import { compileOutputGlobs } from "../workspace/output-globs.js";
import { StagingRefusedError } from "../workspace/thread-workspaces.js";
import { getCurrentTaskInput } from "@langchain/langgraph";
import { artifactStoreFor, saveArtifacts } from "../artifacts/command-artifacts.js";
import { conversationAttachments, type ConversationAttachment } from "../workspace/conversation-attachments.js";
import { resolveInputs, type InputSpec } from "../workspace/input-sources.js";
import { withConfinedFolder } from "../internal/core.js";
import type { CommandCallInput } from "../tools/command-call-input.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import { refusalPayload, resultPayload } from "./tool-payload.js";
import { sessionPayload } from "../sessions/session-payload.js";

export type { CommandCallInput, OutputsManifest } from "../tools/command-call-input.js";

function toCommandSkill(runtime: ShellRuntime, name: string): CommandSkill | undefined {
  const skill = runtime.catalog.get(name);
  return skill ? { name: skill.name, dir: skill.dir, allowedTools: skill.allowedTools } : undefined;
}

/** Resolves the skill of a run_skill_script call and checks it was read; also returns the loaded skills visible. */
function skillContext(
  runtime: ShellRuntime,
  input: CommandCallInput,
  config: RunnableConfig,
): { skill?: CommandSkill; loaded: CommandSkill[] } | Refusal {
  const names = loadedSkillNames(runtime, config);
  const loaded = (names ?? [])
    .map((name) => toCommandSkill(runtime, name))
    .filter((skill): skill is CommandSkill => skill !== undefined);
  if (input.tool === "shell") return { loaded };
  const name = input.skill ?? "";
  const skill = toCommandSkill(runtime, name);
  if (!skill) return refusal("skill-not-found", `skill '${name}' not found in the catalog`);
  if (skill.dir === "")
    return refusal("skill-has-no-folder", `skill '${name}' is defined in code and has no folder with scripts`);
  if (runtime.requireSkillRead) {
    if (names === undefined) {
      return refusal(
        "skill-not-read",
        `cannot tell whether skill '${name}' was read: no loaded-skill context is visible to the tool (see docs/shell.md, 'Which skills are loaded')`,
      );
    }
    if (!names.includes(name))
      return refusal("skill-not-read", `read skill '${name}' (read_skill) before running its scripts`);
  }
  return { skill, loaded };
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
    runtime.stagedAttachments.delete(oneCall);
    runtime.pinnedArtifacts.delete(oneCall);
    await runtime.workspaces.remove(oneCall);
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

async function runInThread(
  runtime: ShellRuntime,
  input: CommandCallInput,
  config: RunnableConfig,
  threadId: string,
): Promise<string> {
  await loadBashParser();
  // validate: the skill, then every input, before anything runs
  const context = skillContext(runtime, input, config);
  if ("ok" in context) return refusalPayload(context);
  // every input is checked before anything runs: a bad glob or timeout must not surface after the command ran
  const outputs = input.outputs ?? {};
  const globs = compileOutputGlobs(outputs.globs ?? input.output_globs);
  if (!globs.ok) return refusalPayload(refusal("invalid-glob", globs.message));
  const primary =
    outputs.primary === undefined ? undefined : compileOutputGlobs([outputs.primary.replace(/^out\//, "")]);
  if (primary && !primary.ok) return refusalPayload(refusal("invalid-glob", primary.message));
  // a call without a thread id has no artifact namespace: it neither loads nor saves any
  const artifacts = isOneCallThread(threadId) ? undefined : artifactStoreFor(runtime, config);
  // with nowhere to save, the command still runs and its files are returned, with a warning (as trpc-agent-go does)
  const artifactsWarning =
    outputs.save_as_artifacts && !artifacts
      ? isOneCallThread(threadId)
        ? "save_as_artifacts: not saved, the run has no thread id (configurable.thread_id); the files are returned only"
        : "save_as_artifacts: not saved, no artifact store is configured (compile the graph with a store, or give the shell hook artifacts.store); the files are returned only"
      : undefined;
  if (input.timeout_seconds !== undefined && !(Number.isFinite(input.timeout_seconds) && input.timeout_seconds > 0)) {
    return refusalPayload(refusal("invalid-input", "timeout_seconds must be a positive number"));
  }
  const span = { tool: input.tool, ...(context.skill ? { skill: context.skill.name } : {}) };
  const workspaceDir = await runtime.workspaces.ensure(threadId);
  // a skill's own environment (installed after approval when needed) comes first on PATH, for policy and command alike
  const environment = context.skill
    ? await prepareSkillEnvironment(runtime, context.skill, workspaceDir, config)
    : { ok: true as const };
  if (!environment.ok) return refusalPayload(environment);
  // parse once and plan: every command the line can run, checked (refusals name the piece of the line)
  const planned = planCall(runtime, input, context, workspaceDir, environment.hostDir);
  if (!planned.ok) return refusalPayload(planned);
  const { plan, display } = planned;
  // approve: approval rules, and pieces that cannot be judged before running, interrupt before anything runs
  const approval = approveCall(runtime, input, context.skill?.name, plan, display, workspaceDir);
  if (approval) return refusalPayload(approval);
  // stage: inputs, attachments and files into the workspace
  const attachments =
    runtime.stageAttachments || input.inputs?.some((spec) => spec.from.startsWith("attachment://"))
      ? attachmentsOf(config)
      : [];
  const resolved = await resolveInputs(input.inputs ?? [], {
    threadId,
    workspaceDir,
    skillDir: (name) => [context.skill, ...context.loaded].find((entry) => entry?.name === name)?.dir || undefined,
    artifacts,
    attachments,
    maxBytes: runtime.artifacts === false ? 16 * 1024 * 1024 : Math.max(runtime.artifacts.maxBytes, 1),
    budgetBytes: MAX_STAGED_BYTES - (input.files ?? []).reduce((sum, file) => sum + byteLength(file.content), 0),
    hostFolder: (name) => runtime.hostInputs.get(name),
    pinned: pinnedArtifacts(runtime, threadId),
  });
  if (!resolved.ok) return refusalPayload(refusal("staging-refused", resolved.message));
  const declared = [...(input.files ?? []), ...resolved.files];
  const attached = runtime.stageAttachments
    ? planAttachmentStaging(
        attachments,
        seenAttachments(runtime, threadId),
        workspaceDir,
        MAX_STAGED_BYTES - declared.reduce((sum, file) => sum + byteLength(file.content), 0),
      )
    : { files: [], skipped: [] };
  const toStage = [...declared, ...attached.files];
  if (toStage.length > 0) {
    try {
      await withWorkspaceSpan(
        config,
        { ...span, stage: "stage" },
        () => runtime.workspaces.stage(threadId, toStage),
        (written) => ({ files: written.length }),
      );
    } catch (error) {
      if (error instanceof StagingRefusedError) return refusalPayload(refusal("staging-refused", error.message));
      throw error;
    }
  }
  const editor =
    input.editor_text === undefined
      ? undefined
      : editorText(input.editor_text, runtime.executor.view({ workspaceDir }).workspaceDir);
  if (editor) {
    try {
      await runtime.workspaces.writeRuntimeFile(threadId, editor.file);
    } catch (error) {
      if (error instanceof StagingRefusedError) return refusalPayload(refusal("staging-refused", error.message));
      throw error;
    }
  }
  if (input.pty && !resolveExecutable("script"))
    return refusalPayload(
      refusal("not-found", "pty: util-linux 'script' is not installed, so no pseudo-terminal can be given"),
    );
  const timeoutMs = Math.round(
    Math.min(
      input.timeout_seconds !== undefined ? input.timeout_seconds * 1000 : runtime.timeoutMs,
      runtime.maxTimeoutMs,
    ),
  );
  const request: ExecutionRequest = {
    argv: [],
    shellCommand: plan.command,
    searchPath: runtime.policy.fixedPath,
    cwd: plan.cwd,
    workspaceDir,
    ...(context.skill ? { skillDir: context.skill.dir, skillName: context.skill.name } : {}),
    ...(environment.hostDir ? { skillEnvironment: { hostDir: environment.hostDir, writable: false } } : {}),
    env: { ...runtime.fixedEnv, ...input.env, ...editor?.env },
    ...(input.stdin !== undefined ? { stdin: input.stdin } : {}),
    ...(input.pty ? { pty: true } : {}),
    timeoutMs,
    killGraceMs: runtime.killGraceMs,
    maxOutputBytes: runtime.maxOutputBytes,
    killAfterOutputBytes: runtime.killAfterOutputBytes,
    runId: randomUUID(),
  };
  if (input.interactive) {
    if (!runtime.sessionsEnabled)
      return refusalPayload(refusal("invalid-input", "interactive sessions are turned off"));
    if (runtime.sessions.count(threadId) >= runtime.maxSessionsPerThread) {
      return refusalPayload(
        refusal(
          "too-many-sessions",
          `this thread already has ${runtime.maxSessionsPerThread} sessions; kill one first`,
        ),
      );
    }
    const running = runtime.executor.start(request);
    if (input.stdin !== undefined) running.write(input.stdin);
    const session = new InteractiveSession(runtime.sessions.newId(), running, runtime.maxUnreadBytes);
    runtime.sessions.add(threadId, session);
    const snapshot = await session.poll(1_000);
    if (snapshot.status === "exited") runtime.sessions.remove(threadId, session.id);
    return sessionPayload(snapshot, display);
  }
  // run, then collect out/ and persist what was asked for
  const startedAt = Date.now();
  const result = await withWorkspaceSpan(
    config,
    { ...span, stage: "run" },
    () => runtime.executor.run(request),
    (ran) => ({ exitCode: ran.exitCode, timedOut: ran.timedOut, executor: runtime.executor.name }),
  );
  const collecting = () =>
    collectOutputFiles(workspaceDir, {
      match: globs.match,
      modifiedSince: startedAt - 5,
      maxFiles: Math.min(outputs.max_files ?? runtime.outputFiles.maxFiles, runtime.outputFiles.maxFiles),
      maxFileBytes: Math.min(
        outputs.max_file_bytes ?? runtime.outputFiles.maxFileBytes,
        runtime.outputFiles.maxFileBytes,
      ),
      inlineTextBytes: outputs.inline === false ? 0 : runtime.outputFiles.inlineTextBytes,
      ...(outputs.max_total_bytes !== undefined
        ? { maxInlineTotalBytes: Math.min(outputs.max_total_bytes, 65_536) }
        : {}),
    });
  const sorted = setApartEmptyOutputs(
    result,
    await withWorkspaceSpan(config, { ...span, stage: "collect" }, collecting, (found) => ({
      files: found.files.length,
      skipped: found.skippedCount,
    })),
  );
  const { collected } = sorted;
  const primaryOutput = primary?.ok
    ? collected.files.find((file) => primary.match(file.path.replace(/^out\//, "")))
    : undefined;
  const saved =
    outputs.save_as_artifacts && artifacts
      ? await withWorkspaceSpan(
          config,
          { ...span, stage: "save" },
          () =>
            saveArtifacts(runtime, artifacts, threadId, workspaceDir, collected.files, {
              naming: { template: outputs.name_template, prefix: outputs.artifact_prefix },
              force: outputs.force_save === true,
            }),
          (artifactsSaved) => ({ artifacts: artifactsSaved.filter((artifact) => !("skipped" in artifact)).length }),
        )
      : undefined;
  return resultPayload(result, {
    command: display,
    executor: runtime.executor.name,
    collected,
    primaryOutput,
    artifacts: saved,
    attachmentsSkipped: attached.skipped,
    emptyFromFailure: sorted.emptyFromFailure,
    artifactsWarning,
  });
}

function attachmentsOf(config: RunnableConfig): ConversationAttachment[] {
  try {
    const state = getCurrentTaskInput(config) as { messages?: unknown } | undefined;
    return conversationAttachments(state?.messages);
  } catch {
    return [];
  }
}

/** The thread's pinned artifact versions (in this process). */
function pinnedArtifacts(runtime: ShellRuntime, threadId: string): Map<string, number> {
  const pinned = runtime.pinnedArtifacts.get(threadId) ?? new Map<string, number>();
  runtime.pinnedArtifacts.set(threadId, pinned);
  return pinned;
}

/** The thread's memory of attachments already staged or skipped. */
function seenAttachments(runtime: ShellRuntime, threadId: string): Set<string> {
  const seen = runtime.stagedAttachments.get(threadId) ?? new Set<string>();
  runtime.stagedAttachments.set(threadId, seen);
  return seen;
}

function byteLength(content: string | Uint8Array): number {
  return typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
}
