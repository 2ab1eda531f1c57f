// @skillgraph/core/search: the offline ranked search index on its own (the registry's search() uses it).
// SearchOptions, SearchResult and SkillEmbeddings are on the root entry (the registry's search() takes and returns them).
export type { SearchDocument } from "./search/search-types.js";
export { createSearchIndex, type SearchIndex, type SearchIndexUpdate } from "./search/search-index.js";
export {
  DEFAULT_CONFIDENCE_MARGIN,
  DEFAULT_CONFIDENCE_THRESHOLD,
  type SearchIndexOptions,
} from "./search/search-index-options.js";
