import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { ExecutionRequest } from "../executor/executor-types.js";
import type { CommandSkill } from "../policy/plan-command.js";
import { loadBashParser } from "../command/bash-parser.js";
import { approveCall, planCall } from "../tools/shell/plan-and-approve.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { InteractiveSession } from "../sessions/interactive-session.js";
import { collectOutputFiles, type CollectedFile } from "../workspace/collect-output-files.js";
import { loadedSkillNames, threadIdOf } from "./loaded-skill-names.js";
import { NO_THREAD } from "../workspace/thread-workspaces.js";
import { prepareSkillEnvironment } from "./prepare-skill-environment.js";
import { compileOutputGlobs } from "../workspace/output-globs.js";
import { StagingRefusedError } from "../workspace/thread-workspaces.js";
import { getCurrentTaskInput, getStore } from "@langchain/langgraph";
import {
  artifactStoreFromBaseStore,
  isArtifactName,
  type Artifact,
  type ArtifactStore,
} from "../artifacts/artifact-store.js";
import { conversationAttachments, type ConversationAttachment } from "../workspace/conversation-attachments.js";
import { resolveInputs } from "../workspace/input-sources.js";
import { withConfinedFolder } from "./core.js";
import type { CommandCallInput } from "../tools/command-call-input.js";
import type { ShellRuntime } from "./shell-runtime.js";
import { refusalPayload, resultPayload } from "./tool-payload.js";
import { sessionPayload } from "./session-payload.js";

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
  const artifacts = artifactStoreFor(runtime, config);
  if (outputs.save_as_artifacts && !artifacts) {
    return refusalPayload(
      refusal(
        "invalid-input",
        "save_as_artifacts needs an artifact store: compile the graph with a store, or give the shell hook artifacts.store",
      ),
    );
  }
  if (input.timeout_seconds !== undefined && !(Number.isFinite(input.timeout_seconds) && input.timeout_seconds > 0)) {
    return refusalPayload(refusal("invalid-input", "timeout_seconds must be a positive number"));
  }
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
    threadId: threadId ?? NO_THREAD,
    workspaceDir,
    skillDir: (name) => [context.skill, ...context.loaded].find((entry) => entry?.name === name)?.dir || undefined,
    artifacts,
    attachments,
    maxBytes: runtime.artifacts === false ? 16 * 1024 * 1024 : Math.max(runtime.artifacts.maxBytes, 1),
  });
  if (!resolved.ok) return refusalPayload(refusal("staging-refused", resolved.message));
  const toStage = [
    ...(input.files ?? []),
    ...resolved.files,
    ...newAttachments(runtime, threadId, workspaceDir, attachments),
  ];
  if (toStage.length > 0) {
    try {
      await runtime.workspaces.stage(threadId, toStage);
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
    env: { ...runtime.fixedEnv, ...input.env },
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
  const result = await runtime.executor.run(request);
  const collected = await collectOutputFiles(workspaceDir, {
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
  const primaryOutput = primary?.ok
    ? collected.files.find((file) => primary.match(file.path.replace(/^out\//, "")))
    : undefined;
  const saved =
    outputs.save_as_artifacts && artifacts
      ? await saveArtifacts(runtime, artifacts, threadId ?? NO_THREAD, workspaceDir, collected.files)
      : undefined;
  return resultPayload(result, {
    command: display,
    executor: runtime.executor.name,
    collected,
    primaryOutput,
    artifacts: saved,
  });
}

function artifactStoreFor(runtime: ShellRuntime, config: RunnableConfig): ArtifactStore | undefined {
  if (runtime.artifacts === false) return undefined;
  if (runtime.artifacts.store) return runtime.artifacts.store;
  const store = getStore(config as never);
  return store ? artifactStoreFromBaseStore(store) : undefined;
}

function attachmentsOf(config: RunnableConfig): ConversationAttachment[] {
  try {
    const state = getCurrentTaskInput(config) as { messages?: unknown } | undefined;
    return conversationAttachments(state?.messages);
  } catch {
    return [];
  }
}

/** Attachments not yet staged in this thread's workspace, as files under `in/attachments/`. */
function newAttachments(
  runtime: ShellRuntime,
  threadId: string | undefined,
  workspaceDir: string,
  attachments: readonly ConversationAttachment[],
) {
  if (!runtime.stageAttachments || attachments.length === 0) return [];
  const key = threadId ?? NO_THREAD;
  const staged = runtime.stagedAttachments.get(key) ?? new Set<string>();
  runtime.stagedAttachments.set(key, staged);
  // staged before and still there (a deleted workspace gets them again)
  const present = (attachment: ConversationAttachment) =>
    staged.has(`${attachment.sha256}:${attachment.name}`) &&
    existsSync(path.join(workspaceDir, "in", "attachments", attachment.name));
  const fresh = attachments.filter((attachment) => !present(attachment));
  for (const attachment of fresh) staged.add(`${attachment.sha256}:${attachment.name}`);
  return fresh.map((attachment) => ({ path: `in/attachments/${attachment.name}`, content: attachment.bytes }));
}

/** Saves collected files as artifacts (each read again race-free, whole, within the artifact size cap). */
async function saveArtifacts(
  runtime: ShellRuntime,
  store: ArtifactStore,
  threadId: string,
  workspaceDir: string,
  files: readonly CollectedFile[],
) {
  const maxBytes = runtime.artifacts === false ? 0 : runtime.artifacts.maxBytes;
  const saved: Array<Artifact | { name: string; skipped: string }> = [];
  await withConfinedFolder(workspaceDir, async (workspace) => {
    for (const file of files) {
      const name = file.path.split("/").pop() as string;
      // the command chose the file name: one with '@' or odd characters would collide with version keys
      if (!isArtifactName(name)) {
        saved.push({ name, skipped: "not a valid artifact name (letters, digits, '.', '_', '-'; at most 128)" });
        continue;
      }
      const read = await workspace.readFile(file.path, { maxBytes });
      if (!read.ok) {
        saved.push({ name, skipped: read.message });
        continue;
      }
      saved.push(
        await store.save(threadId, { name, bytes: read.bytes, mimeType: file.mimeType, savedFrom: file.path }),
      );
    }
  });
  return saved;
}
