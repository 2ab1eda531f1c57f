import { EmbeddingCache } from "../search/embedding-cache.js";
import { phrasingsOf } from "../search/fuse-phrasings.js";
import { fuseRankings } from "../search/fuse-rankings.js";
import { semanticRanking } from "../search/semantic-ranking.js";
import type { SkillEmbeddings } from "../search/skill-embeddings.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";
import type { RegistryCatalog } from "./registry-catalog.js";

/**
 * Search over a registry's catalog: lexical (the catalog's index, built on first use), and with an embeddings model
 * the lexical ranking fused with cosine similarity over each skill's name and description. Vectors are cached by
 * content hash across catalogs, so a reload re-embeds only changed skills.
 */
export class RegistrySearch {
  private embeddingCache: EmbeddingCache | undefined;
  private embedding: Promise<void> = Promise.resolve();

  constructor(private readonly embeddings: SkillEmbeddings | undefined) {}

  /** Lexical search of a catalog. */
  search(catalog: RegistryCatalog, query: string | readonly string[], options?: SearchOptions): SearchResult[] {
    return catalog.index.get().search(query, options);
  }

  /** Lexical and semantic search fused; lexical alone without a model or when the model fails. */
  async searchAsync(
    catalog: RegistryCatalog,
    query: string | readonly string[],
    options: SearchOptions = {},
  ): Promise<SearchResult[]> {
    const model = this.embeddings;
    if (!model) return this.search(catalog, query, options);
    const limit = options.limit ?? 10;
    const pool = Math.max(limit, 50);
    const lexical = catalog.index.get().search(query, { ...options, limit: pool });
    const phrasings = phrasingsOf(query) ?? [];
    const cache = (this.embeddingCache ??= new EmbeddingCache(model));
    const winners = [...catalog.byName.values()];
    try {
      // One embedding pass at a time; a pass embeds only skills whose content hash has no vector yet.
      const pass = this.embedding.then(() =>
        cache.sync(winners.map((entry) => ({ hash: entry.metadata.hash, text: embeddingText(entry.metadata) }))),
      );
      this.embedding = pass.catch(() => {});
      await pass;
      const vectors = await Promise.all(phrasings.map((phrasing) => cache.query(phrasing)));
      const skills = winners.map(({ metadata }) => ({
        name: metadata.name,
        path: metadata.file,
        description: metadata.description,
        vector: cache.get(metadata.hash),
      }));
      const semantic = semanticRanking(skills, vectors, pool);
      return fuseRankings(lexical, semantic, limit);
    } catch {
      // The embeddings service failing (down, malformed answer) degrades to the lexical ranking, never to an error.
      return lexical.slice(0, limit);
    }
  }
}

/** The text a skill is embedded by: what the model sees of it at level 1. */
function embeddingText(metadata: { name: string; description: string }): string {
  return `${metadata.name}: ${metadata.description}`;
}
