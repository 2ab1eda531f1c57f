import { saveArtifacts, type SavedArtifact } from "./command-artifacts.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { OutputsManifest } from "./command-call-input.js";
import type { StagedCall } from "./call-types.js";
import type { CollectedCall } from "./collect-call.js";
import { withWorkspaceSpan } from "./workspace-spans.js";

/** Whether a call's reported files are saved: it asked (`save_as_artifacts`), or the hook saves every call's. */
export function savesArtifacts(runtime: RuntimeView<"artifacts">, outputs: OutputsManifest): boolean {
  return (
    outputs.save_as_artifacts === true || (runtime.config.artifacts !== false && runtime.config.artifacts.alwaysSave)
  );
}

/**
 * The persist step: the collected files saved as artifacts when the call asked (or the hook's `artifacts.alwaysSave`)
 * and there is a store; else undefined.
 */
export async function persistCall(
  runtime: RuntimeView<"artifacts">,
  call: StagedCall,
  collected: CollectedCall,
): Promise<SavedArtifact[] | undefined> {
  const { outputs, artifacts } = call;
  if (!savesArtifacts(runtime, outputs) || !artifacts) return undefined;
  const maxBytes = runtime.config.artifacts === false ? 0 : runtime.config.artifacts.maxBytes;
  const target = { store: artifacts, threadId: call.threadId, workspaceDir: call.workspaceDir, maxBytes };
  return withWorkspaceSpan(
    call.config,
    { ...call.span, stage: "save" },
    () =>
      saveArtifacts(target, collected.collected.files, {
        naming: { template: outputs.name_template, prefix: outputs.artifact_prefix },
        force: outputs.force_save === true,
      }),
    (saved) => ({ artifacts: saved.filter((artifact) => !("skipped" in artifact)).length }),
  );
}
