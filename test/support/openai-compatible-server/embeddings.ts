/** Dimensions of the test server's embeddings. */
export const TEST_EMBEDDING_DIMENSIONS = 256;

/**
 * The deterministic embedding the test server returns: lowercase character trigrams of the text (with word
 * boundaries) hashed into 256 dimensions, L2-normalised. Texts sharing spelling get a high cosine, so tests can
 * predict rankings without a model.
 */
export function deterministicEmbedding(text: string): number[] {
  const vector = new Array<number>(TEST_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      let hash = 2166136261;
      for (const char of padded.slice(i, i + 3)) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
      vector[(hash >>> 0) % TEST_EMBEDDING_DIMENSIONS]! += 1;
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** The `POST /v1/embeddings` answer for a parsed body, or an error message when the input is not text. */
export function embeddingsAnswer(body: {
  input?: unknown;
  model?: unknown;
  encoding_format?: unknown;
}): { texts: string[]; json: Record<string, unknown> } | { error: string } {
  const input = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(input) || !input.every((text): text is string => typeof text === "string"))
    return { error: "openai-compatible-server: embeddings input must be a string or an array of strings" };
  const base64 = body.encoding_format === "base64";
  const data = input.map((text, index) => {
    const vector = deterministicEmbedding(text);
    return {
      object: "embedding",
      index,
      embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString("base64") : vector,
    };
  });
  const tokens = input.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return {
    texts: input,
    json: {
      object: "list",
      data,
      model: typeof body.model === "string" ? body.model : "skillgraph-test-embeddings",
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}
