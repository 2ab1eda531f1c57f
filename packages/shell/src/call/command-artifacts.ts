import type { RunnableConfig } from "@langchain/core/runnables";
import { getStore } from "@langchain/langgraph";
import { ArtifactQuotaError } from "../artifacts/artifact-quota-error.js";
import { createHash } from "node:crypto";
import { artifactNameFor, type ArtifactNaming } from "../artifacts/artifact-names.js";
import { artifactStoreFromBaseStore, type Artifact, type ArtifactStore } from "../artifacts/artifact-store.js";
import type { CollectedFile } from "../workspace/collect-output-files.js";
import { withConfinedFolder } from "../internal/core.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";

/** The artifact store of a call: the hook's own, else the graph's store; undefined when artifacts are off or absent. */
export function artifactStoreFor(runtime: RuntimeView<"artifacts">, config: RunnableConfig): ArtifactStore | undefined {
  if (runtime.config.artifacts === false) return undefined;
  if (runtime.config.artifacts.store) return runtime.config.artifacts.store;
  const store = getStore(config as never);
  return store ? artifactStoreFromBaseStore(store, runtime.config.artifacts.quota) : undefined;
}

/** One entry of a call's `artifacts` list: saved (or unchanged, so not saved again), or skipped with the reason. */
/** Where {@link saveArtifacts} saves: the store, the thread, the workspace the files are read from, the size cap. */
export interface ArtifactTarget {
  store: ArtifactStore;
  threadId: string;
  workspaceDir: string;
  maxBytes: number;
}

export type SavedArtifact = (Artifact & { unchanged?: boolean }) | { name: string; skipped: string };

/**
 * Saves collected files as artifacts (each read again race-free, whole, within the artifact size cap), named by the
 * manifest's `name_template` / `artifact_prefix`. A file whose bytes equal the newest version of its name is not
 * saved again (reported `unchanged`) unless `force`.
 */
export async function saveArtifacts(
  { store, threadId, workspaceDir, maxBytes }: ArtifactTarget,
  files: readonly CollectedFile[],
  options: { naming?: ArtifactNaming; force?: boolean } = {},
): Promise<SavedArtifact[]> {
  const saved: SavedArtifact[] = [];
  await withConfinedFolder(workspaceDir, async (workspace) => {
    for (const file of files) {
      // the command chose the file name: one with '@' or odd characters would collide with version keys
      const named = artifactNameFor(file.path.split("/").pop() as string, options.naming ?? {});
      if (!named.ok) {
        saved.push({ name: named.name, skipped: named.message });
        continue;
      }
      const { name } = named;
      const read = await workspace.readFile(file.path, { maxBytes });
      if (!read.ok) {
        saved.push({ name, skipped: read.message });
        continue;
      }
      const newest = options.force ? undefined : await store.describe?.(threadId, name);
      if (newest?.sha256 !== undefined && newest.sha256 === createHash("sha256").update(read.bytes).digest("hex")) {
        saved.push({ ...newest, unchanged: true });
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
