import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { applyChanges, EMPTY_STATE, type IndexState } from "./index-state.js";
import { analyzeDocument, type IndexedDocument } from "./indexed-document.js";
import { buildQuerySlots } from "./query-slots.js";
import { rankDocuments } from "./rank-documents.js";
import {
  resolveSearchIndexOptions,
  type ResolvedSearchIndexOptions,
  type SearchIndexOptions,
} from "./search-index-options.js";
import type { SearchDocument, SearchOptions, SearchResult } from "./search-types.js";

/** Documents to add or replace (matched by name) and names to drop. */
export interface SearchIndexUpdate {
  upsert?: readonly SearchDocument[];
  remove?: readonly string[];
}

/** An immutable ranked index over skills; `update` returns a new index and leaves this one untouched. */
export interface SearchIndex {
  /** Number of indexed documents. */
  readonly size: number;
  /** The score at or above which a result is `confident`. */
  readonly confidenceThreshold: number;
  /** Ranks documents for a natural-language query, best first, ties broken by name. */
  search(query: string, options?: SearchOptions): SearchResult[];
  /** A new index with documents upserted (by name) and removed; unchanged documents are not re-tokenized. */
  update(changes: SearchIndexUpdate): SearchIndex;
}

/**
 * Builds an offline ranked search index (BM25F over name > description > headings > body, Porter stemming,
 * a concept/synonym table and typo matching). Bodies are tokenized once and not retained.
 * Later documents with an already-seen name replace earlier ones.
 * @param documents - the skills to index
 * @param options - ranking and confidence settings, checked here (throws InvalidOptionsError)
 * @example
 * const index = createSearchIndex([{ name: "git-commit", description: "Write commit messages", body: "...", path: "/s/git-commit/SKILL.md" }]);
 * index.search("commit my staged changes")[0]?.name; // "git-commit"
 */
export function createSearchIndex(documents: readonly SearchDocument[], options: SearchIndexOptions = {}): SearchIndex {
  const resolved = resolveSearchIndexOptions(options);
  return new ImmutableSearchIndex(applyChanges(EMPTY_STATE, [], documents.map(analyzeDocument)), resolved);
}

/**
 * Internal (registry snapshots): an index from documents already analyzed (restored from a snapshot or analyzed
 * earlier), so nothing is tokenized again; `base` is updated (upsert by name, remove) when given.
 */
export function indexAnalyzedDocuments(
  base: SearchIndex | undefined,
  changes: { upsert: readonly IndexedDocument[]; remove?: readonly string[] },
  options: SearchIndexOptions = {},
): SearchIndex {
  return ImmutableSearchIndex.withAnalyzed(base, changes.upsert, changes.remove ?? [], options);
}

class ImmutableSearchIndex implements SearchIndex {
  static withAnalyzed(
    base: SearchIndex | undefined,
    upsert: readonly IndexedDocument[],
    remove: readonly string[],
    options: SearchIndexOptions,
  ): SearchIndex {
    if (base !== undefined && !(base instanceof ImmutableSearchIndex))
      throw new TypeError("indexAnalyzedDocuments: base is not an index built by createSearchIndex");
    const state = base ? base.#state : EMPTY_STATE;
    const resolved = base ? base.#options : resolveSearchIndexOptions(options);
    return new ImmutableSearchIndex(applyChanges(state, remove, upsert), resolved);
  }

  readonly #state: IndexState;
  readonly #options: ResolvedSearchIndexOptions;

  constructor(state: IndexState, options: ResolvedSearchIndexOptions) {
    this.#state = state;
    this.#options = options;
  }

  get size(): number {
    return this.#state.docs.size;
  }

  get confidenceThreshold(): number {
    return this.#options.confidenceThreshold;
  }

  search(query: string, options: SearchOptions = {}): SearchResult[] {
    const limit = options.limit ?? 10;
    const minScore = options.minScore ?? 0;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new InvalidOptionsError({ option: "limit", value: limit, message: "must be a non-negative integer" });
    }
    if (typeof minScore !== "number" || !(minScore >= 0 && minScore <= 1)) {
      throw new InvalidOptionsError({ option: "minScore", value: minScore, message: "must be a number in 0..1" });
    }
    const slots = buildQuerySlots(query, this.#state, this.#options.synonyms, this.#options.expansion);
    const ranked = rankDocuments(this.#state, slots, this.#options.ranking, limit);
    const results: SearchResult[] = [];
    for (const { document, score } of ranked) {
      if (results.length >= limit || score < minScore) break;
      if (score <= 0) break;
      results.push({
        name: document.name,
        score,
        path: document.path,
        description: document.description,
        confident: score >= this.#options.confidenceThreshold,
      });
    }
    return results;
  }

  update(changes: SearchIndexUpdate): SearchIndex {
    const added = (changes.upsert ?? []).map(analyzeDocument);
    return new ImmutableSearchIndex(applyChanges(this.#state, changes.remove ?? [], added), this.#options);
  }
}
