import { describe, expect, it } from "vitest";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { EmbeddingCache } from "./embedding-cache.js";
import type { SkillEmbeddings } from "./skill-embeddings.js";

/** A model whose answers are given by the test (an untrusted service). */
function model(documents: (texts: string[]) => unknown, query: () => unknown = () => [1, 0]): SkillEmbeddings {
  return {
    embedDocuments: async (texts: string[]) => documents(texts) as number[][],
    embedQuery: async () => query() as number[],
  };
}

const invalid = (pattern: RegExp) => (error: unknown) =>
  SkillgraphError.isInstance(error) && error.code === "embeddings-invalid" && pattern.test(error.message);

describe("EmbeddingCache with an untrusted embeddings model", () => {
  it("a wrong vector count, a non-numeric vector or a changed dimension is a typed embeddings-invalid error", async () => {
    const inputs = [
      { hash: "a", text: "A" },
      { hash: "b", text: "B" },
    ];
    await expect(new EmbeddingCache(model(() => [[1, 0]])).sync(inputs)).rejects.toSatisfy(
      invalid(/returned 1 vectors for 2 texts/),
    );
    await expect(
      new EmbeddingCache(
        model(() => [
          [1, 0],
          [Number.NaN, 1],
        ]),
      ).sync(inputs),
    ).rejects.toSatisfy(invalid(/not a vector of finite numbers/));
    const cache = new EmbeddingCache(
      model(
        (texts) => texts.map(() => [1, 0]),
        () => [1, 0, 0],
      ),
    );
    await cache.sync(inputs);
    await expect(cache.query("q")).rejects.toSatisfy(invalid(/3 dimensions, earlier 2/));
  });
});
