import { z } from "zod";
import { integerSchema } from "../errors/integer-option.js";
import { fractionSchema } from "../errors/option-schemas.js";
import { parseOptions } from "../errors/parse-options.js";
import { applyChanges, EMPTY_STATE, type IndexState } from "./index-state.js";
import { analyzeDocument, type IndexedDocument } from "./indexed-document.js";
import { fusePhrasings, phrasingsOf } from "./fuse-phrasings.js";
import type { LeaderEvidence } from "./confidence-model.js";
import { evidenceFor, leaderIsConfident, type JudgedPhrasing } from "./judge-phrasings.js";
import { markConfident } from "./mark-confident.js";
import { buildQuerySlots } from "./query-slots.js";
import { rankDocuments } from "./rank-documents.js";
import { hasUnknownWord } from "./unknown-words.js";
import { nameMatch, nameMissing } from "./name-match.js";
import {
  resolveSearchIndexOptions,
  type ResolvedSearchIndexOptions,
  type SearchIndexOptions,
} from "./search-index-options.js";
import type { SearchDocument, SearchOptions, SearchResult } from "./search-types.js";

/** `search`'s options, defaults inside. */
const searchOptionsSchema = z.object({
  limit: integerSchema({ min: 0 }).default(10),
  minScore: fractionSchema().default(0),
});

/** A query: one phrasing or several, as distinct trimmed non-empty strings. */
const queryError = "must be a string or an array of strings";
const querySchema = z
  .union([z.string(), z.array(z.string())], { error: queryError })
  .transform((query) => phrasingsOf(query)!);

/** Documents to add or replace (matched by name) and names to drop. */
export interface SearchIndexUpdate {
  upsert?: readonly SearchDocument[];
  remove?: readonly string[];
}

/** An immutable ranked index over skills; `update` returns a new index and leaves this one untouched. */
export interface SearchIndex {
  /** Number of indexed documents. */
  readonly size: number;
  /** The least probability (0..1, from the calibrated model) that the first result is right for it to be `confident`. */
  readonly confidenceThreshold: number;
  /** How far a `confident` result must lead every other match. */
  readonly confidenceMargin: number;
  /**
   * Ranks documents for a natural-language query, best first, ties broken by name. An array is several phrasings of
   * one need (the request as written plus rewrites), fused by reciprocal rank; each result's score is its best one.
   */
  search(query: string | readonly string[], options?: SearchOptions): SearchResult[];
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

/** Internal (registry persistence): an index over a state already built (restored from a file), nothing analyzed. */
export function indexFromState(state: IndexState, options: SearchIndexOptions = {}): SearchIndex {
  return ImmutableSearchIndex.fromState(state, options);
}

/** Internal (registry persistence): the term statistics of an index built here, for writing them out. */
export function stateOfIndex(index: SearchIndex): IndexState {
  if (!(index instanceof ImmutableSearchIndex))
    throw new TypeError("stateOfIndex: not an index built by createSearchIndex");
  return ImmutableSearchIndex.stateOf(index);
}

/**
 * Internal (the bench that fits the confidence model): the first result of one phrasing and the evidence
 * `confident` reads of it (its score, its lead over the next match, its name's match and miss, the unknown-word flag).
 */
export function leaderEvidenceOf(
  index: SearchIndex,
  phrasing: string,
): { leader: string | undefined; evidence: LeaderEvidence } {
  if (!(index instanceof ImmutableSearchIndex))
    throw new TypeError("leaderEvidenceOf: not an index built by createSearchIndex");
  return index.evidence(phrasing);
}

/** How many candidates each phrasing contributes to the fused ranking (as for embeddings: the lexical top 50). */
const FUSION_POOL = 50;

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

  static fromState(state: IndexState, options: SearchIndexOptions): SearchIndex {
    return new ImmutableSearchIndex(state, resolveSearchIndexOptions(options));
  }

  static stateOf(index: ImmutableSearchIndex): IndexState {
    return index.#state;
  }

  readonly #state: IndexState;
  readonly #options: ResolvedSearchIndexOptions;

  constructor(state: IndexState, options: ResolvedSearchIndexOptions) {
    this.#state = state;
    this.#options = options;
  }

  get size(): number {
    return this.#state.count;
  }

  get confidenceThreshold(): number {
    return this.#options.confidence.threshold;
  }

  get confidenceMargin(): number {
    return this.#options.confidence.margin;
  }

  search(query: string | readonly string[], options: SearchOptions = {}): SearchResult[] {
    const { limit, minScore } = parseOptions(searchOptionsSchema, options);
    const phrasings = parseOptions(querySchema, query, "query");
    // One candidate past the limit, so `confident` can see the closest competitor the limit cut off.
    const pool = phrasings.length > 1 ? Math.max(limit + 1, FUSION_POOL) : limit + 1;
    const ranked = phrasings.map((phrasing) => this.#rank(phrasing, pool));
    const rankings = ranked.map(({ ranking }) => ranking);
    const candidates = rankings.length === 1 ? rankings[0]! : fusePhrasings(rankings);
    const shown = candidates.slice(0, limit);
    const confident = shown.length > 0 && leaderIsConfident(ranked, candidates, this.#options.confidence);
    return markConfident(shown, confident).filter((result) => result.score >= minScore);
  }

  /** One phrasing's leader and what `confident` reads of it (the bench that fits the model reads this). */
  evidence(phrasing: string): { leader: string | undefined; evidence: LeaderEvidence } {
    const judged = this.#rank(phrasing, 2);
    const leader = judged.ranking[0]?.name;
    return { leader, evidence: evidenceFor(judged, leader ?? "") };
  }

  /** One phrasing's lexical ranking (positive scores only, best first) and whether it holds a word no skill uses. */
  #rank(phrasing: string, limit: number): JudgedPhrasing {
    const slots = buildQuerySlots(phrasing, this.#state, this.#options.synonyms, this.#options.expansion);
    const ranking = rankDocuments(this.#state, slots, this.#options.ranking, limit)
      .filter(({ score }) => score > 0)
      .slice(0, limit);
    const state = this.#state;
    const ids = new Map<string, number>();
    const results = ranking.map(({ id, score }) => {
      const { name, path, description } = state.docs.detailOf(id);
      ids.set(name, id);
      return { name, score, path, description };
    });
    const nameMatchOf = (name: string) => (ids.has(name) ? nameMatch(state, slots, ids.get(name)!) : 0);
    const nameMissingOf = (name: string) => nameMissing(state, slots, name);
    return { ranking: results, unknownWord: hasUnknownWord(slots, state), nameMatchOf, nameMissingOf };
  }

  update(changes: SearchIndexUpdate): SearchIndex {
    const added = (changes.upsert ?? []).map(analyzeDocument);
    return new ImmutableSearchIndex(applyChanges(this.#state, changes.remove ?? [], added), this.#options);
  }
}
