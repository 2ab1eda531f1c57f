// `createSkillRegistry`'s options as one zod schema, defaults inside; `parseOptions` names the option at fault.
import { z } from "zod";
import { integerSchema } from "../errors/integer-option.js";
import { booleanSchema, millisecondsSchema } from "../errors/option-schemas.js";
import { embeddingsProblem, type SkillEmbeddings } from "../search/skill-embeddings.js";
import type { SkillSource } from "../sources/skill-source.js";

/** Sources, each id once. */
const sourcesSchema = z
  .array(
    z.custom<SkillSource>((value) => typeof (value as { id?: unknown } | null)?.id === "string", {
      error: "must be a skill source (with an id)",
    }),
    { error: "must be an array of skill sources" },
  )
  .superRefine((sources, context) => {
    const ids = new Set<string>();
    for (const source of sources) {
      if (ids.has(source.id))
        context.addIssue({ code: "custom", input: source.id, message: `source '${source.id}' is listed twice` });
      ids.add(source.id);
    }
  });

/** `watch`: off, on with the default timings, or the timings (polling at least every 10 ms). */
const watchSchema = z
  .union(
    [
      z.boolean(),
      z.object({ debounceMs: millisecondsSchema().default(50), pollMs: millisecondsSchema().default(1000) }),
    ],
    { error: "must be a boolean or { debounceMs, pollMs }" },
  )
  .default(false)
  .transform((watch) => {
    if (watch === false) return undefined;
    const { debounceMs, pollMs } = watch === true ? { debounceMs: 50, pollMs: 1000 } : watch;
    return { debounceMs, pollMs: Math.max(pollMs, 10) };
  });

/** An embeddings model: anything with `embedDocuments()` and `embedQuery()`. */
const embeddingsSchema = z.custom<SkillEmbeddings>().superRefine((value, context) => {
  const problem = embeddingsProblem(value);
  if (problem) context.addIssue({ code: "custom", input: value, message: problem });
});

/** The checked options of `createSkillRegistry` (documented on `SkillRegistryOptions`). */
export const skillRegistryOptionsSchema = z.object({
  sources: sourcesSchema,
  strict: booleanSchema().default(false),
  maxSkillMdBytes: integerSchema().default(1024 * 1024),
  searchIndex: z.enum(["lazy", "eager"], { error: 'must be "lazy" or "eager"' }).default("lazy"),
  snapshot: z
    .union([z.boolean(), z.string().min(1, { error: "must be a boolean or a snapshot file path" })], {
      error: "must be a boolean or a snapshot file path",
    })
    .default(true),
  watch: watchSchema,
  embeddings: embeddingsSchema.optional(),
});
