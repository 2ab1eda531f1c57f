// The stage step of a tool call: inputs, conversation attachments, the call's files and its editor text, written
// into the workspace before the command runs.
import type { RunnableConfig } from "@langchain/core/runnables";
import { getCurrentTaskInput } from "@langchain/langgraph";
import { refusal, type Refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import {
  artifactAttachments,
  stageArtifactAttachments,
  type ArtifactAttachment,
} from "../workspace/artifact-attachments.js";
import { planAttachmentStaging, type SkippedAttachment } from "../workspace/attachment-staging.js";
import { conversationAttachments, type ConversationAttachment } from "../workspace/conversation-attachments.js";
import { editorText } from "../workspace/editor-text.js";
import { resolveInputs, type InputContext, type StagedInput } from "../workspace/input-sources.js";
import { MAX_STAGED_BYTES, StagingRefusedError, type StagedFile } from "../workspace/thread-workspaces.js";
import type { PlannedCall, StagedCall } from "./call-types.js";
import { withWorkspaceSpan } from "./workspace-spans.js";

/** The graph state's messages (none outside a graph run). */
function messagesOf(config: RunnableConfig): unknown {
  try {
    return (getCurrentTaskInput(config) as { messages?: unknown } | undefined)?.messages;
  } catch {
    return undefined;
  }
}

function attachmentsOf(config: RunnableConfig): ConversationAttachment[] {
  return conversationAttachments(messagesOf(config));
}

function artifactAttachmentsOf(config: RunnableConfig): ArtifactAttachment[] {
  return artifactAttachments(messagesOf(config));
}

/** The thread's pinned artifact versions (in this process). */
function pinnedArtifacts(runtime: RuntimeView<never, never, "pinnedArtifacts">, threadId: string): Map<string, number> {
  const pinned = runtime.threads.pinnedArtifacts.get(threadId) ?? new Map<string, number>();
  runtime.threads.pinnedArtifacts.set(threadId, pinned);
  return pinned;
}

/** The thread's memory of attachments already staged or skipped. */
function seenAttachments(runtime: RuntimeView<never, never, "stagedAttachments">, threadId: string): Set<string> {
  const seen = runtime.threads.stagedAttachments.get(threadId) ?? new Set<string>();
  runtime.threads.stagedAttachments.set(threadId, seen);
  return seen;
}

function byteLength(content: string | Uint8Array): number {
  return typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
}

function totalBytes(files: ReadonlyArray<{ content: string | Uint8Array }>): number {
  return files.reduce((sum, file) => sum + byteLength(file.content), 0);
}

/** Runs a workspace write, turning a staging refusal into the call's refusal. */
async function refusedOnStaging(write: () => Promise<unknown>): Promise<Refusal | undefined> {
  try {
    await write();
    return undefined;
  } catch (error) {
    if (error instanceof StagingRefusedError) return refusal("staging-refused", error.message);
    throw error;
  }
}

/** What a call stages: the files, what its result reports of them, and the attachments left out (and why). */
interface Staging {
  ok: true;
  files: StagedFile[];
  staged: StagedInput[];
  skipped: SkippedAttachment[];
}

/** The files a call stages: its own `files`, its resolved `inputs`, then the conversation's new attachments. */
async function filesToStage(
  runtime: RuntimeView<
    "artifacts" | "hostInputs" | "stageAttachments",
    "catalog",
    "pinnedArtifacts" | "stagedAttachments"
  >,
  call: PlannedCall,
): Promise<Staging | Refusal> {
  const { input, threadId, workspaceDir } = call;
  const attachments =
    runtime.config.stageAttachments || input.inputs?.some((spec) => spec.from.startsWith("attachment://"))
      ? attachmentsOf(call.config)
      : [];
  const context: InputContext = {
    threadId,
    workspaceDir,
    skillDir: (name) => [call.skill, ...call.loaded].find((entry) => entry?.name === name)?.dir || undefined,
    skillRefusesHardLinks: (name) => runtime.services.catalog.get(name)?.origin?.kind !== "npm",
    artifacts: call.artifacts,
    attachments,
    maxBytes: runtime.config.artifacts === false ? 16 * 1024 * 1024 : Math.max(runtime.config.artifacts.maxBytes, 1),
    budgetBytes: MAX_STAGED_BYTES - totalBytes(input.files ?? []),
    hostFolder: (name) => runtime.config.hostInputs.get(name),
    pinned: pinnedArtifacts(runtime, threadId),
  };
  const resolved = await resolveInputs(input.inputs ?? [], context);
  if (!resolved.ok) return refusal("staging-refused", resolved.message);
  const declared = [...(input.files ?? []), ...resolved.files];
  if (!runtime.config.stageAttachments) return { ok: true, files: declared, staged: resolved.staged, skipped: [] };
  const seen = seenAttachments(runtime, threadId);
  const attached = planAttachmentStaging(attachments, seen, workspaceDir, MAX_STAGED_BYTES - totalBytes(declared));
  const byReference = await stageArtifactAttachments(artifactAttachmentsOf(call.config), seen, {
    ...context,
    budgetBytes: MAX_STAGED_BYTES - totalBytes([...declared, ...attached.files]),
  });
  return {
    ok: true,
    files: [...declared, ...attached.files, ...byReference.files],
    staged: [
      ...resolved.staged,
      ...attached.files.map((file) => ({
        from: `attachment://${file.path.slice("in/attachments/".length)}`,
        path: file.path,
        size: byteLength(file.content),
      })),
      ...byReference.staged,
    ],
    skipped: [...attached.skipped, ...byReference.skipped],
  };
}

/** The stage step: every file of the call written into the workspace, then the editor text (when given). */
export async function stageCall(
  runtime: RuntimeView<
    "artifacts" | "hostInputs" | "stageAttachments",
    "catalog" | "executor" | "workspaces",
    "pinnedArtifacts" | "stagedAttachments"
  >,
  call: PlannedCall,
): Promise<StagedCall | Refusal> {
  const staging = await filesToStage(runtime, call);
  if (!staging.ok) return staging;
  const { threadId } = call;
  if (staging.files.length > 0) {
    const refused = await refusedOnStaging(() =>
      withWorkspaceSpan(
        call.config,
        { ...call.span, stage: "stage" },
        () => runtime.services.workspaces.stage(threadId, staging.files),
        (written) => ({ files: written.length }),
      ),
    );
    if (refused) return refused;
  }
  const editor =
    call.input.editor_text === undefined
      ? undefined
      : editorText(
          call.input.editor_text,
          runtime.services.executor.view({ workspaceDir: call.workspaceDir }).workspaceDir,
        );
  if (editor) {
    const refused = await refusedOnStaging(() => runtime.services.workspaces.writeRuntimeFile(threadId, editor.file));
    if (refused) return refused;
  }
  let runDir = "";
  const refusedRun = await refusedOnStaging(async () => {
    runDir = await runtime.services.workspaces.makeRunFolder(threadId);
  });
  if (refusedRun) return refusedRun;
  return {
    ...call,
    runDir,
    attachmentsSkipped: staging.skipped,
    stagedInputs: staging.staged,
    ...(editor ? { editorEnv: editor.env } : {}),
  };
}
