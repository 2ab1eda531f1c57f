import { CONCEPT_GROUPS, EQUIVALENT_GROUPS } from "./concept-groups.js";
import { tokenize } from "./tokenize.js";

/** A stand-in stem and whether it is an equivalent (true) or merely related (false). */
export interface Synonym {
  term: string;
  equivalent: boolean;
}

/** Stem -> the other stems of every group it belongs to (equivalents win over related entries). */
export type SynonymMap = ReadonlyMap<string, readonly Synonym[]>;

/**
 * Builds a stem-level synonym lookup (each word tokenized and stemmed like document text).
 * @param related - groups of related words
 * @param equivalent - groups of words naming the same thing
 */
export function buildSynonymMap(
  related: ReadonlyArray<readonly string[]>,
  equivalent: ReadonlyArray<readonly string[]> = [],
): SynonymMap {
  const maps = new Map<string, Map<string, boolean>>();
  const add = (groups: ReadonlyArray<readonly string[]>, isEquivalent: boolean): void => {
    for (const group of groups) {
      const stems = [...new Set(group.flatMap((word) => tokenize(word)))];
      for (const stem of stems) {
        let map = maps.get(stem);
        if (!map) maps.set(stem, (map = new Map()));
        for (const other of stems) if (other !== stem && !map.get(other)) map.set(other, isEquivalent);
      }
    }
  };
  add(related, false);
  add(equivalent, true);
  const out = new Map<string, Synonym[]>();
  for (const [stem, map] of maps) {
    out.set(
      stem,
      [...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([term, isEquivalent]) => ({ term, equivalent: isEquivalent })),
    );
  }
  return out;
}

let shared: SynonymMap | undefined;

/** The synonym map of the built-in tables, built once. */
export function defaultSynonyms(): SynonymMap {
  return (shared ??= buildSynonymMap(CONCEPT_GROUPS, EQUIVALENT_GROUPS));
}
