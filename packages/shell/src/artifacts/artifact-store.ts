import { createHash } from "node:crypto";
import type { BaseStore } from "@langchain/langgraph";
import { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";
import { integerSchema, parseOptions } from "../internal/core.js";
import { ArtifactQuotaError } from "./artifact-quota-error.js";
import { KeyedLock } from "./keyed-lock.js";

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
  /** sha256 of the bytes (a save of unchanged bytes can then be skipped). */
  sha256?: string;
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
  /** A version's metadata without its bytes (sizes are checked against budgets before anything is read). */
  describe?(threadId: string, name: string, version?: number): Promise<Artifact | undefined>;
}

/** The quota of {@link artifactStoreFromBaseStore} as a zod schema (its type is {@link ArtifactQuota}). */
export const artifactQuotaSchema = z.object(
  {
    /** Bytes of every version of every artifact of one thread together. @default 64 MiB */
    maxBytesPerThread: integerSchema().default(64 * 1024 ** 2),
    /** Versions of all artifacts of one thread together. @default 256 */
    maxVersionsPerThread: integerSchema({ max: 1_000_000 }).default(256),
  },
  { error: "must be an object" },
);

/** Limits of {@link artifactStoreFromBaseStore}, per thread. */
export type ArtifactQuota = z.input<typeof artifactQuotaSchema>;

const NAMESPACE = ["skillgraph", "artifacts"];
const USAGE_KEY = "#usage";

interface StoredArtifact extends Artifact {
  /** base64 of the bytes (BaseStore values are JSON). */
  data: string;
}

/** A valid artifact name: a file name, no folders (`report.pdf`, `chart-q3.png`). */
export function isArtifactName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) && !name.includes("..");
}

/**
 * The thread's namespace: a fixed-length digest of the id, so any id can save (stores refuse `.` and `:` in labels)
 * and no thread's namespace is a prefix of another's (stores search namespaces by prefix, `t1` would match `t10`).
 */
function namespaceOf(threadId: string): string[] {
  return [...NAMESPACE, `thread-${createHash("sha256").update(threadId).digest("hex").slice(0, 32)}`];
}

function sameNamespace(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((label, index) => label === b[index]);
}

/**
 * Artifacts in a LangGraph `BaseStore` (`InMemoryStore`, `PostgresStore`, the Agent Server's store): per thread, one
 * item per version (`<name>@<version>`, with the bytes), its metadata (`<name>#<version>`), a `<name>` item pointing at
 * the newest, and the thread's usage. Versions are numbered under a lock per thread in this process, so parallel
 * saves of one name get distinct versions; a save over the thread's quota throws {@link ArtifactQuotaError}.
 * Artifacts outlive the workspace and the checkpoints of the thread (and its process, with a persistent store).
 * @param store the store
 * @param quota limits per thread
 * @example const artifacts = artifactStoreFromBaseStore(new InMemoryStore(), { maxBytesPerThread: 32 * 1024 ** 2 });
 */
export function artifactStoreFromBaseStore(store: BaseStore, quota: ArtifactQuota = {}): ArtifactStore {
  const { maxBytesPerThread: maxBytes, maxVersionsPerThread: maxVersions } = parseOptions(artifactQuotaSchema, quota);
  const lock = lockOf(store);
  const describe = async (threadId: string, name: string, version?: number) => {
    const key = version === undefined ? name : `${name}#${version}`;
    const item = await store.get(namespaceOf(threadId), key);
    return item ? (item.value as unknown as Artifact) : undefined;
  };
  return {
    save: (threadId, input) =>
      lock.run(threadId, async () => {
        if (!isArtifactName(input.name)) {
          throw new InvalidOptionsError({
            option: "name",
            value: input.name,
            message: `'${input.name}' is not a valid artifact name`,
          });
        }
        const namespace = namespaceOf(threadId);
        const usage = ((await store.get(namespace, USAGE_KEY))?.value ?? { bytes: 0, versions: 0 }) as {
          bytes: number;
          versions: number;
        };
        const size = input.bytes.byteLength;
        if (usage.bytes + size > maxBytes || usage.versions + 1 > maxVersions) {
          throw new ArtifactQuotaError(
            `saving '${input.name}' (${size} bytes) would exceed this thread's artifact quota: ${usage.bytes} of ${maxBytes} bytes and ${usage.versions} of ${maxVersions} versions used`,
          );
        }
        let version = ((await describe(threadId, input.name))?.version ?? 0) + 1;
        // a version another process wrote meanwhile is never overwritten: take the next free number
        while (await store.get(namespace, `${input.name}#${version}`)) version += 1;
        const artifact: Artifact = {
          name: input.name,
          version,
          mimeType: input.mimeType,
          size,
          savedFrom: input.savedFrom,
          createdAt: new Date().toISOString(),
          sha256: createHash("sha256").update(input.bytes).digest("hex"),
        };
        const stored: StoredArtifact = { ...artifact, data: Buffer.from(input.bytes).toString("base64") };
        await store.put(namespace, `${input.name}@${version}`, stored as unknown as Record<string, unknown>, false);
        await store.put(namespace, `${input.name}#${version}`, artifact as unknown as Record<string, unknown>, false);
        await store.put(namespace, input.name, { ...artifact, latest: true } as Record<string, unknown>, false);
        await store.put(namespace, USAGE_KEY, { bytes: usage.bytes + size, versions: usage.versions + 1 }, false);
        return artifact;
      }),
    async load(threadId, name, version) {
      const wanted = version ?? (await describe(threadId, name))?.version;
      if (wanted === undefined) return undefined;
      const item = await store.get(namespaceOf(threadId), `${name}@${wanted}`);
      if (!item) return undefined;
      const { data, ...artifact } = item.value as unknown as StoredArtifact;
      return { artifact, bytes: Buffer.from(data, "base64") };
    },
    describe,
    async list(threadId) {
      const namespace = namespaceOf(threadId);
      const items = await store.search(namespace, { filter: { latest: true }, limit: 1000 });
      return items
        .filter((item) => sameNamespace(item.namespace, namespace) && isArtifactName(item.key))
        .map((item) => {
          const { latest: _latest, ...artifact } = item.value as unknown as Artifact & { latest?: boolean };
          return artifact;
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}

/** One lock per store object, shared by every artifact store made over it in this process. */
const locks = new WeakMap<BaseStore, KeyedLock>();

function lockOf(store: BaseStore): KeyedLock {
  let lock = locks.get(store);
  if (!lock) {
    lock = new KeyedLock();
    locks.set(store, lock);
  }
  return lock;
}
