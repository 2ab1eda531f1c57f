// The shell hook's `artifacts` option as a zod schema, and the resolved form the runtime keeps.
import type { BaseStore } from "@langchain/langgraph";
import { z } from "zod";
import { integerSchema } from "../internal/core.js";
import {
  artifactQuotaSchema,
  artifactStoreFromBaseStore,
  type ArtifactQuota,
  type ArtifactStore,
} from "./artifact-store.js";

/**
 * Artifacts as the runtime keeps them: `false` when off; else a fixed store (or undefined to use the graph's store),
 * and whether every reported file is saved even when the call did not ask (`alwaysSave`).
 */
export type ResolvedArtifacts =
  | false
  | { store?: ArtifactStore; maxBytes: number; quota: ArtifactQuota; alwaysSave: boolean };

/** An object with `save` and `load`: an ArtifactStore. */
function isArtifactStore(store: unknown): store is ArtifactStore {
  const candidate = store as Partial<ArtifactStore> | null;
  return typeof candidate?.save === "function" && typeof candidate.load === "function";
}

/** An object with `get` and `put`: a LangGraph BaseStore. */
function isBaseStore(store: unknown): store is BaseStore {
  const candidate = store as Partial<BaseStore> | null;
  return typeof candidate?.get === "function" && typeof candidate.put === "function";
}

/** The `artifacts` option: `false`, or where artifacts are kept, how large one may be and each thread's quota. */
export const artifactOptionsSchema = z.union(
  [
    z.literal(false),
    z.object({
      store: z
        .custom<BaseStore | ArtifactStore>((value) => isArtifactStore(value) || isBaseStore(value), {
          error: "must be a LangGraph BaseStore or an ArtifactStore",
        })
        .optional(),
      maxBytes: integerSchema({ max: 256 * 1024 * 1024 }).default(8 * 1024 * 1024),
      quota: artifactQuotaSchema.prefault({}),
      /** Save every reported `out/` file of every call, whether or not the call asked (trpc-agent-go's force-save). */
      alwaysSave: z.boolean({ error: "must be true or false" }).default(false),
    }),
  ],
  { error: "must be false or { store?, maxBytes?, quota?, alwaysSave? }" },
);

/**
 * The artifacts of parsed options (the quota's numbers were checked by the schema), a BaseStore wrapped as an
 * ArtifactStore.
 */
export function resolveArtifacts(option: z.output<typeof artifactOptionsSchema>): ResolvedArtifacts {
  if (option === false) return false;
  const { maxBytes, quota, store, alwaysSave } = option;
  if (store === undefined) return { maxBytes, quota, alwaysSave };
  // The schema accepted only these two kinds.
  if (isArtifactStore(store)) return { store, maxBytes, quota, alwaysSave };
  return { store: artifactStoreFromBaseStore(store, quota), maxBytes, quota, alwaysSave };
}
