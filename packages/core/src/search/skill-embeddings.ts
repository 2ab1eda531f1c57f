/**
 * What skillgraph needs from an embeddings model: structurally the same as LangChain's `Embeddings`
 * (`OpenAIEmbeddings`, `OllamaEmbeddings`, ...), so any of them can be passed without core importing LangChain.
 */
export interface SkillEmbeddings {
  /** One vector per text, in order. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  /** The vector of a search query. */
  embedQuery(text: string): Promise<number[]>;
}

/** Checks an embeddings option once (throws nothing; returns why it is unusable). */
export function embeddingsProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "must be an object with embedDocuments() and embedQuery()";
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.embedDocuments !== "function" || typeof candidate.embedQuery !== "function")
    return "must have embedDocuments() and embedQuery() methods";
  return undefined;
}
