import type { BaseStore } from "@langchain/langgraph";
import { InvalidOptionsError } from "../internal/core.js";

/** An output saved beyond the workspace, referable later in the thread as `artifact://<name>` (or `@<version>`). */
export interface Artifact {
  name: string;
  /** 1, 2, ... per name and thread. */
  version: number;
  mimeType: string;
  size: number;
  /** Workspace path it was saved from, e.g. `out/report.pdf`. */
  savedFrom: string;
  createdAt: string;
}

/** Where artifacts live. Any LangGraph `BaseStore` fits through {@link artifactStoreFromBaseStore}. */
export interface ArtifactStore {
  /** Saves a new version of `name` for the thread and returns it. */
  save(
    threadId: string,
    input: { name: string; bytes: Uint8Array; mimeType: string; savedFrom: string },
  ): Promise<Artifact>;
  /** One version (the newest when `version` is undefined), or undefined. */
  load(threadId: string, name: string, version?: number): Promise<{ artifact: Artifact; bytes: Buffer } | undefined>;
  /** The newest version of every artifact of the thread, by name. */
  list(threadId: string): Promise<Artifact[]>;
}

const NAMESPACE = ["skillgraph", "artifacts"];

interface StoredArtifact extends Artifact {
  /** base64 of the bytes (BaseStore values are JSON). */
  data: string;
}

/** A valid artifact name: a file name, no folders (`report.pdf`, `chart-q3.png`). */
export function isArtifactName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) && !name.includes("..");
}

/**
 * Artifacts in a LangGraph `BaseStore` (`InMemoryStore`, `PostgresStore`, the Agent Server's store): one item per
 * version under `["skillgraph", "artifacts", <threadId>]`, key `<name>@<version>`, plus a `<name>` item pointing at the
 * newest. They outlive the workspace and the checkpoints of the thread (and its process, with a persistent store).
 * @param store the store
 * @example const artifacts = artifactStoreFromBaseStore(new InMemoryStore());
 */
export function artifactStoreFromBaseStore(store: BaseStore): ArtifactStore {
  const namespace = (threadId: string) => [...NAMESPACE, threadId];
  return {
    async save(threadId, input) {
      if (!isArtifactName(input.name)) {
        throw new InvalidOptionsError({
          option: "name",
          value: input.name,
          message: `'${input.name}' is not a valid artifact name`,
        });
      }
      const latest = await store.get(namespace(threadId), input.name);
      const version = ((latest?.value as { version?: number } | undefined)?.version ?? 0) + 1;
      const artifact: Artifact = {
        name: input.name,
        version,
        mimeType: input.mimeType,
        size: input.bytes.byteLength,
        savedFrom: input.savedFrom,
        createdAt: new Date().toISOString(),
      };
      const stored: StoredArtifact = { ...artifact, data: Buffer.from(input.bytes).toString("base64") };
      await store.put(
        namespace(threadId),
        `${input.name}@${version}`,
        stored as unknown as Record<string, unknown>,
        false,
      );
      await store.put(namespace(threadId), input.name, artifact as unknown as Record<string, unknown>, false);
      return artifact;
    },
    async load(threadId, name, version) {
      let wanted = version;
      if (wanted === undefined) {
        const latest = await store.get(namespace(threadId), name);
        wanted = (latest?.value as { version?: number } | undefined)?.version;
        if (wanted === undefined) return undefined;
      }
      const item = await store.get(namespace(threadId), `${name}@${wanted}`);
      if (!item) return undefined;
      const { data, ...artifact } = item.value as unknown as StoredArtifact;
      return { artifact, bytes: Buffer.from(data, "base64") };
    },
    async list(threadId) {
      const items = await store.search(namespace(threadId), { limit: 1000 });
      return items
        .filter((item) => !item.key.includes("@"))
        .map((item) => item.value as unknown as Artifact)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
