/** Options for a ranked skill search. */
export interface SearchOptions {
  /** Maximum results. @default 10 */
  limit?: number;
  /** Drop results scoring below this (0..1). @default 0 */
  minScore?: number;
}

/**
 * One ranked hit. `score` is in 0..1; `confident` is true for at most one result of a search, the one that clearly
 * fits: false everywhere means "no clear fit" (nothing may fit, or several skills fit about equally).
 */
export interface SearchResult {
  name: string;
  score: number;
  /** Absolute path of the skill's SKILL.md ("" for code-defined skills). */
  path: string;
  description: string;
  /** True for the first result when the calibrated model finds it a clear fit (docs/search.md; at most one result). */
  confident: boolean;
}

/** A document the search index is built from. */
export interface SearchDocument {
  name: string;
  description: string;
  body: string;
  path: string;
}
