// The shell hook's `artifacts` option as a zod schema, and the resolved form the runtime keeps.
import type { BaseStore } from "@langchain/langgraph";
import { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";
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

/** The `artifacts` option: `false`, or where artifacts are kept, how large one may be and each thread's quota. */
export const artifactOptionsSchema = z.union(
  [
    z.literal(false),
    z.object({
      store: z
        .custom<BaseStore | ArtifactStore>((value) => typeof value === "object" && value !== null, {
          error: "must be a LangGraph BaseStore or an ArtifactStore",
        })
        .optional(),
      maxBytes: integerSchema({ max: 256 * 1024 * 1024 }).default(8 * 1024 * 1024),
      quota: artifactQuotaSchema.optional(),
      /** Save every reported `out/` file of every call, whether or not the call asked (trpc-agent-go's force-save). */
      alwaysSave: z.boolean({ error: "must be true or false" }).default(false),
    }),
  ],
  { error: "must be false or { store?, maxBytes?, quota?, alwaysSave? }" },
);

function isArtifactStore(store: object): store is ArtifactStore {
  return typeof (store as ArtifactStore).save === "function" && typeof (store as ArtifactStore).load === "function";
}

function isBaseStore(store: object): store is BaseStore {
  return typeof (store as BaseStore).get === "function" && typeof (store as BaseStore).put === "function";
}

/**
 * The artifacts of parsed options (the quota's numbers were checked by the schema), a BaseStore wrapped as an
 * ArtifactStore. @throws InvalidOptionsError when the store is neither kind
 */
export function resolveArtifacts(option: z.output<typeof artifactOptionsSchema> | undefined): ResolvedArtifacts {
  if (option === false) return false;
  const { maxBytes, quota = {}, store, alwaysSave } = option ?? { maxBytes: 8 * 1024 * 1024, alwaysSave: false };
  if (store === undefined) return { maxBytes, quota, alwaysSave };
  if (isArtifactStore(store)) return { store, maxBytes, quota, alwaysSave };
  if (isBaseStore(store)) return { store: artifactStoreFromBaseStore(store, quota), maxBytes, quota, alwaysSave };
  throw new InvalidOptionsError({
    option: "artifacts.store",
    value: store,
    message: "must be a LangGraph BaseStore or an ArtifactStore",
  });
}
