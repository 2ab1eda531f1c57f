// Per-style search figures for one labelled set: top-1, top-5, abstention AUC (each style's real requests against
// the set's off-topic ones), how many real requests are confident, and how many are confident with a wrong first
// result; plus how many off-topic requests are confident.
import type { SearchResult } from "../../packages/core/src/search/search-types.js";
import type { StyledQuery } from "./query-sets.js";

/** Figures of one style (or of all real requests: style "all"). */
export interface StyleFigures {
  style: string;
  count: number;
  top1: number;
  top5: number;
  auc: number;
  confident: number;
  confidentWrong: number;
}

/** Figures of a whole set. */
export interface SetFigures {
  styles: StyleFigures[];
  offTopic: number;
  offTopicConfident: number;
  /** Per query: id, kind, whether the first result is right, its score, confident, first name. */
  rows: Array<{
    id: string;
    kind: string;
    query: string;
    right: boolean;
    rank: number;
    score: number;
    confident: boolean;
    first?: string;
  }>;
}

/** Scores `queries` with `search` (results best first); `dirOf` maps a result path to its corpus-relative folder. */
export function evaluateStyles(
  queries: readonly StyledQuery[],
  search: (item: StyledQuery) => SearchResult[],
  dirOf: (path: string) => string | undefined,
): SetFigures {
  const rows: SetFigures["rows"] = [];
  for (const item of queries) {
    const results = search(item).slice(0, 5);
    const rank = results.findIndex(
      (result) => item.folders.includes(dirOf(result.path) ?? "") || item.names.includes(result.name),
    );
    const first = results[0];
    rows.push({
      id: item.id,
      kind: item.kind,
      query: item.query,
      right: rank === 0,
      rank,
      score: first?.score ?? 0,
      confident: first?.confident ?? false,
      first: first?.name,
    });
  }
  const off = rows.filter((row) => row.kind === "off-topic");
  const real = rows.filter((row) => row.kind !== "off-topic");
  const styles = [...new Set(real.map((row) => row.kind))].sort();
  const figures = (style: string, subset: typeof rows): StyleFigures => {
    let wins = 0;
    for (const r of subset) for (const o of off) wins += r.score > o.score ? 1 : r.score === o.score ? 0.5 : 0;
    return {
      style,
      count: subset.length,
      top1: subset.filter((row) => row.right).length / subset.length,
      top5: subset.filter((row) => row.rank >= 0).length / subset.length,
      auc: off.length === 0 ? Number.NaN : wins / (subset.length * off.length),
      confident: subset.filter((row) => row.confident).length / subset.length,
      confidentWrong: subset.filter((row) => row.confident && !row.right).length / subset.length,
    };
  };
  return {
    styles: [
      ...styles.map((style) =>
        figures(
          style,
          real.filter((row) => row.kind === style),
        ),
      ),
      figures("all", real),
    ],
    offTopic: off.length,
    offTopicConfident: off.filter((row) => row.confident).length,
    rows,
  };
}
