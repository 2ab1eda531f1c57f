// @skillgraph/core/search: the offline ranked search index on its own (the registry's search() uses it).
export type { SearchDocument, SearchOptions, SearchResult } from "./search/search-types.js";
export { createSearchIndex, type SearchIndex, type SearchIndexUpdate } from "./search/search-index.js";
export { DEFAULT_CONFIDENCE_THRESHOLD, type SearchIndexOptions } from "./search/search-index-options.js";
export type { SkillEmbeddings } from "./search/skill-embeddings.js";
