import type { ExecutionResult } from "../executor/executor-types.js";
import { limitMessages } from "../executor/limit-messages.js";
import type { Refusal } from "../policy/refusal.js";
import type { Artifact } from "../artifacts/artifact-store.js";
import type { CollectedFile, CollectedOutput } from "../workspace/collect-output-files.js";
import type { StagedInput } from "../workspace/input-sources.js";

function fileView(file: CollectedFile) {
  return {
    path: file.path,
    size: file.size,
    mime_type: file.mimeType,
    // trpc-agent-go's stable reference: read_output reads it back, `inputs: [{ from: ref }]` stages it again
    ref: `workspace://${file.path}`,
    ...(file.content !== undefined ? { content: file.content, content_truncated: file.contentTruncated } : {}),
  };
}

/** A refusal as the model sees it. */
export function refusalPayload(refused: Refusal): string {
  return JSON.stringify({ status: "refused", reason: refused.reason, message: refused.message });
}

/** A finished command as the model sees it (snake_case keys, capped output, collected files). */
export function resultPayload(
  result: ExecutionResult,
  extra: {
    command: string;
    executor: string;
    collected?: CollectedOutput;
    primaryOutput?: CollectedFile;
    artifacts?: Array<Artifact | { name: string; skipped: string }>;
    /** Conversation attachments not staged, and why (said once). */
    attachmentsSkipped?: ReadonlyArray<{ name: string; reason: string }>;
    /** Why `save_as_artifacts` saved nothing (no store, no thread id). */
    artifactsWarning?: string;
    /** Empty files a failed command left in `out/` (flagged, not results). */
    emptyFromFailure?: readonly string[];
    /** The inputs and attachments staged for the call. */
    stagedInputs?: readonly StagedInput[];
  },
): string {
  const status = result.timedOut
    ? "timed_out"
    : result.outputLimitExceeded
      ? "output_limit_exceeded"
      : result.killed
        ? "killed"
        : result.exitCode === 0
          ? "ok"
          : "failed";
  return JSON.stringify({
    status,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    ...(result.limitExceeded ? { limit_exceeded: limitMessages(result) } : {}),
    duration_ms: Math.round(result.durationMs),
    stdout: result.stdout,
    stderr: result.stderr,
    stdout_bytes: result.stdoutBytes,
    stderr_bytes: result.stderrBytes,
    stdout_truncated: result.stdoutTruncated,
    stderr_truncated: result.stderrTruncated,
    output_files: (extra.collected?.files ?? []).map(fileView),
    ...(extra.collected && extra.collected.skippedCount > 0
      ? { skipped_files: extra.collected.skipped, skipped_count: extra.collected.skippedCount }
      : {}),
    ...(extra.collected?.truncated ? { out_listing_truncated: true } : {}),
    ...(extra.primaryOutput ? { primary_output: fileView(extra.primaryOutput) } : {}),
    ...(extra.artifacts
      ? {
          artifacts: extra.artifacts.map((artifact) =>
            "skipped" in artifact
              ? artifact
              : {
                  name: artifact.name,
                  version: artifact.version,
                  ref: `artifact://${artifact.name}@${artifact.version}`,
                  size: artifact.size,
                  mime_type: artifact.mimeType,
                  ...((artifact as { unchanged?: boolean }).unchanged ? { unchanged: true } : {}),
                },
          ),
        }
      : {}),
    ...(extra.artifactsWarning ? { artifacts_warning: extra.artifactsWarning } : {}),
    ...(extra.emptyFromFailure && extra.emptyFromFailure.length > 0
      ? {
          empty_outputs_of_failed_command: extra.emptyFromFailure,
          note: "the command failed; these out/ files are empty (opened before it failed) and are not results",
        }
      : {}),
    ...(extra.stagedInputs && extra.stagedInputs.length > 0 ? { staged_inputs: extra.stagedInputs } : {}),
    ...(extra.attachmentsSkipped && extra.attachmentsSkipped.length > 0
      ? { attachments_skipped: extra.attachmentsSkipped }
      : {}),
    ...(result.refusedStarts && result.refusedStarts.length > 0
      ? {
          refused_programs: result.refusedStarts.map((start) => ({
            argv: start.argv,
            reason: start.reason,
            ...(start.needsApproval ? { needs_approval: true } : {}),
          })),
        }
      : {}),
    command: extra.command,
    executor: extra.executor,
  });
}
