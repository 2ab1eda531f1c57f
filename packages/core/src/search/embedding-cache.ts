import { SkillgraphError } from "../errors/skillgraph-error.js";
import type { SkillEmbeddings } from "./skill-embeddings.js";

/** Texts embedded per `embedDocuments` call. */
const BATCH = 64;

/** A document to embed: its content hash (the cache key) and the text that stands for it. */
export interface EmbeddingInput {
  hash: string;
  text: string;
}

/**
 * Document vectors cached by content hash: a reload that changed one skill re-embeds one text. Vectors from the model
 * are untrusted: a wrong count, a non-numeric entry or a dimension that differs from the others is an error, and
 * nothing of that batch is kept. Vectors are stored L2-normalised, so a dot product is the cosine.
 */
export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  private dimensions: number | undefined;

  constructor(private readonly model: SkillEmbeddings) {}

  /** Texts embedded so far (all calls). */
  embeddedTexts = 0;

  /** Embeds every input not cached yet; drops cached vectors of hashes no longer listed. */
  async sync(inputs: readonly EmbeddingInput[]): Promise<void> {
    const wanted = new Set(inputs.map((input) => input.hash));
    for (const hash of this.vectors.keys()) if (!wanted.has(hash)) this.vectors.delete(hash);
    const seen = new Set<string>();
    const missing = inputs.filter(
      (input) => !this.vectors.has(input.hash) && !seen.has(input.hash) && seen.add(input.hash),
    );
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const vectors = await this.model.embedDocuments(batch.map((input) => input.text));
      if (!Array.isArray(vectors) || vectors.length !== batch.length)
        throw invalidEmbeddings(
          `embedDocuments returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${batch.length} texts`,
        );
      const checked = vectors.map((vector) => this.check(vector));
      batch.forEach((input, i) => this.vectors.set(input.hash, checked[i]!));
      this.embeddedTexts += batch.length;
    }
  }

  /** The normalised vector of a query. */
  async query(text: string): Promise<Float32Array> {
    return this.check(await this.model.embedQuery(text));
  }

  /** The cached vector of a document, if any. */
  get(hash: string): Float32Array | undefined {
    return this.vectors.get(hash);
  }

  private check(vector: unknown): Float32Array {
    if (
      !Array.isArray(vector) ||
      vector.length === 0 ||
      !vector.every((value) => typeof value === "number" && Number.isFinite(value))
    ) {
      throw invalidEmbeddings("the embeddings model returned something that is not a vector of finite numbers");
    }
    if (this.dimensions !== undefined && vector.length !== this.dimensions)
      throw invalidEmbeddings(`the embeddings model returned ${vector.length} dimensions, earlier ${this.dimensions}`);
    this.dimensions = vector.length;
    const norm = Math.hypot(...(vector as number[])) || 1;
    return Float32Array.from(vector as number[], (value) => value / norm);
  }
}

function invalidEmbeddings(message: string): SkillgraphError {
  return new SkillgraphError({ code: "embeddings-invalid", message });
}

/** Cosine of two normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
