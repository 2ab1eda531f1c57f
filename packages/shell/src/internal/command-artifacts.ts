import type { RunnableConfig } from "@langchain/core/runnables";
import { getStore } from "@langchain/langgraph";
import { ArtifactQuotaError } from "../artifacts/artifact-quota-error.js";
import {
  artifactStoreFromBaseStore,
  isArtifactName,
  type Artifact,
  type ArtifactStore,
} from "../artifacts/artifact-store.js";
import type { CollectedFile } from "../workspace/collect-output-files.js";
import { withConfinedFolder } from "./core.js";
import type { ShellRuntime } from "./shell-runtime.js";

/** The artifact store of a call: the hook's own, else the graph's store; undefined when artifacts are off or absent. */
export function artifactStoreFor(runtime: ShellRuntime, config: RunnableConfig): ArtifactStore | undefined {
  if (runtime.artifacts === false) return undefined;
  if (runtime.artifacts.store) return runtime.artifacts.store;
  const store = getStore(config as never);
  return store ? artifactStoreFromBaseStore(store, runtime.artifacts.quota) : undefined;
}

/** Saves collected files as artifacts (each read again race-free, whole, within the artifact size cap). */
export async function saveArtifacts(
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
      try {
        saved.push(
          await store.save(threadId, { name, bytes: read.bytes, mimeType: file.mimeType, savedFrom: file.path }),
        );
      } catch (error) {
        if (!ArtifactQuotaError.isInstance(error)) throw error;
        saved.push({ name, skipped: error.message });
      }
    }
  });
  return saved;
}
