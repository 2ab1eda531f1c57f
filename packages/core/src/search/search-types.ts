/** Options for a ranked skill search. */
export interface SearchOptions {
  /** Maximum results. @default 10 */
  limit?: number;
  /** Drop results scoring below this (0..1). @default 0 */
  minScore?: number;
}

/** One ranked hit. `score` is in 0..1; `confident` is false when the best match is too weak to mean "this fits". */
export interface SearchResult {
  name: string;
  score: number;
  /** Absolute path of the skill's SKILL.md ("" for code-defined skills). */
  path: string;
  description: string;
  /** True when the score clears the "something fits" threshold. */
  confident: boolean;
}

/** A document the search index is built from. */
export interface SearchDocument {
  name: string;
  description: string;
  body: string;
  path: string;
}
