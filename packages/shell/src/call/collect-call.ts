import type { RuntimeView } from "../runtime/shell-runtime.js";
import { collectOutputFiles, type CollectedFile } from "../workspace/collect-output-files.js";
import { setApartEmptyOutputs, type SortedOutputs } from "../workspace/empty-failed-outputs.js";
import type { StagedCall } from "./call-types.js";
import type { RanCall } from "./run-call.js";
import { withWorkspaceSpan } from "./workspace-spans.js";

/** The `out/` files of a run: reported ones, the empty ones a failed command left, and the primary output. */
export interface CollectedCall extends SortedOutputs {
  primaryOutput?: CollectedFile;
}

/** A per-call cap, never above the hook's own. */
function capped(asked: number | undefined, limit: number): number {
  return Math.min(asked ?? limit, limit);
}

/** The collect step: the files written to `out/` since the run started, within the call's and the hook's caps. */
export async function collectCall(
  runtime: RuntimeView<"outputFiles">,
  call: StagedCall,
  ran: RanCall,
): Promise<CollectedCall> {
  const { outputs } = call;
  const limits = runtime.config.outputFiles;
  const collecting = () =>
    collectOutputFiles(call.workspaceDir, {
      match: call.match,
      modifiedSince: ran.startedAt,
      maxFiles: capped(outputs.max_files, limits.maxFiles),
      maxFileBytes: capped(outputs.max_file_bytes, limits.maxFileBytes),
      inlineTextBytes: outputs.inline === false ? 0 : limits.inlineTextBytes,
      ...(outputs.max_total_bytes !== undefined
        ? { maxInlineTotalBytes: Math.min(outputs.max_total_bytes, 65_536) }
        : {}),
    });
  const found = await withWorkspaceSpan(call.config, { ...call.span, stage: "collect" }, collecting, (files) => ({
    files: files.files.length,
    skipped: files.skippedCount,
  }));
  const sorted = setApartEmptyOutputs(ran.result, found);
  const primary = call.primary;
  const primaryOutput = primary
    ? sorted.collected.files.find((file) => primary(file.path.replace(/^out\//, "")))
    : undefined;
  return { ...sorted, ...(primaryOutput ? { primaryOutput } : {}) };
}
