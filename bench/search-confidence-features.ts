// Tries new evidence for the search's confidence model (packages/core/src/search/confidence-model.ts) on the
// DEVELOPMENT query sets, cross-validated leave-one-set-out exactly as bench/search-confidence-fit.ts does:
// `node --import tsx bench/search-confidence-features.ts [--verbose] [--off-topic-limit=0.05] [feature,feature...]`.
// With no feature list it scores the model before nameMissing, the model in use (score, lead, nameMatch, unknownWord,
// nameMissing) and then the model in use plus each candidate feature below, one at a time; a list scores just that model (names as printed; "a*b" is a product).
// Per model: the worst set's share of right first results that are confident, the mean over sets, and the worst
// set's off-topic confident and confident-and-wrong shares (each fold fits the weights and chooses the threshold on the
// other sets: the least probability at which every one of them has at most the off-topic limit of its off-topic
// requests confident and at most 2% of its real ones confident and wrong). No feature here reads a query set's words.
import { hasUnknownWord } from "../packages/core/src/search/unknown-words.js";
import { documentFrequency } from "../packages/core/src/search/index-state.js";
import { nameMatch, nameMissing, packedIn } from "../packages/core/src/search/name-match.js";
import { buildQuerySlots, type QuerySlot } from "../packages/core/src/search/query-slots.js";
import { inverseDocumentFrequency, rankDocuments } from "../packages/core/src/search/rank-documents.js";
import { tokenize } from "../packages/core/src/search/tokenize.js";
import { hubFeature, skillHubness } from "./support/skill-hubness.js";
import {
  corpus,
  corpusIndex,
  crossValidate as crossValidateRows,
  evidenceRows,
  importance,
  MODEL_FEATURES,
  MOST,
  options,
  state,
} from "./support/confidence-cross-validation.js";

const WRONG_LIMIT = 0.02;
const offTopicArg = process.argv.find((arg) => arg.startsWith("--off-topic-limit="));
const OFF_TOPIC_LIMIT = offTopicArg ? Number(offTopicArg.split("=")[1]) : 0.05;
const verbose = process.argv.includes("--verbose");
const BASE = MODEL_FEATURES;
/** The model before nameMissing (2026-11-29 morning), scored first for comparison. */
const BEFORE = ["score", "lead", "nameMatch", "unknownWord"];

/** What each candidate measures (all of the first result of one phrasing as written, "leader"; "second" is the next). */
const CANDIDATES: Record<string, string> = {
  coverAny:
    "share of the request's IDF weight the leader holds in any field, body included (a stand-in counts its weight)",
  coverHead: "the same, in its name or description only",
  coverName: "the same, in its name only",
  coverAnySecond: "coverAny of the second result",
  coverHeadSecond: "coverHead of the second result",
  coverAnyLead: "coverAny of the leader minus that of the second",
  coverHeadLead: "coverHead of the leader minus that of the second",
  allAny: "1 when the leader holds every word of the request somewhere in its text (body included)",
  allHead: "1 when it holds every word in its name or description",
  bodyOnly: "share of the request's weight the leader holds only in its body or headings",
  slots: "how many distinct words the request has",
  matched: "how many of them the leader holds",
  short: "1 for a request of three words or fewer",
  topShare: "the largest single word's part of what the leader matched",
  knownMissed: "share of the request's weight in words some skill has but the leader lacks",
  rarestMissedHead: "IDF share of the rarest request word not in the leader's name or description",
  rarestMissedAny: "IDF share of the rarest request word the leader lacks altogether",
  rareBodyWord: "IDF share of the rarest request word that skills use only in bodies (never in a name or description)",
  headlessShare: "share of the request's weight in words no skill has in its name or description",
  sharedBy: "log(1 + how many skills hold every word the leader matched)",
  leadRatio: "lead over the leader's score",
  secondScore: "the second result's score",
  secondNameMatch: "nameMatch of the second result",
  looStay: "share of leave-one-word-out phrasings that keep the leader first",
  looMinLead: "least lead of the leader over those phrasings",
  secondNameMissing: "nameMissing of the second result",
  nameMissingGap: "nameMissing of the second result minus the leader's",
  descriptionMissing: "share of the IDF weight of the three rarest words of the leader's description the request lacks",
  headMissing: "nameMissing over the leader's name and description together",
  hubLead: "log(1 + how many of 10 000 random requests of description words the leader leads by the margin)",
  hubConfident: "the same, counting only those the model in use marks confident",
};

/** The skills' hubness (see skill-hubness.ts), from 20 000 random requests. */
const hubness = skillHubness(
  corpusIndex,
  corpus.map((skill) => skill.document.description),
  { requests: 20_000, margin: 0.01 },
);

/** The best weight of a stand-in for `slot` that document `id` holds: anywhere, in its name or description, in its name. */
function presence(slot: QuerySlot, id: number) {
  let any = 0;
  let head = 0;
  let name = 0;
  for (const alternative of slot.alternatives) {
    const term = state.terms.find(alternative.term);
    const packed = term < 0 ? 0 : packedIn(state, term, id);
    if (packed === 0) continue;
    any = Math.max(any, alternative.weight);
    if (packed & 0x7ff) head = Math.max(head, alternative.weight);
    if (packed & 0xf) name = Math.max(name, alternative.weight);
  }
  return { any, head, name };
}

const knownSlot = (slot: QuerySlot) => slot.alternatives.some((a) => documentFrequency(state, a.term) > 0);

/** How many documents hold every one of `slots` (by some stand-in). */
function sharedBy(slots: readonly QuerySlot[]): number {
  let common: Set<number> | undefined;
  for (const slot of slots) {
    const here = new Set<number>();
    for (const alternative of slot.alternatives) {
      const term = state.terms.find(alternative.term);
      if (term >= 0)
        for (let at = state.starts[term]!; at < state.starts[term + 1]!; at++) here.add(state.postingDocs[at]!);
    }
    common = common ? new Set([...common].filter((id) => here.has(id))) : here;
  }
  return common?.size ?? 0;
}

/** Coverage features of document `id` (undefined: no such result) for the request's slots. */
function coverage(slots: readonly QuerySlot[], id: number | undefined) {
  const c = { total: 0, any: 0, head: 0, name: 0, matched: 0, top: 0, knownMissed: 0, missedHead: 0, missedAny: 0 };
  const held: QuerySlot[] = [];
  for (const slot of slots) {
    const weight = importance(slot);
    c.total += weight;
    if (id === undefined) continue;
    const p = presence(slot, id);
    c.any += weight * p.any;
    c.head += weight * p.head;
    c.name += weight * p.name;
    if (p.any > 0) {
      c.matched++;
      c.top = Math.max(c.top, weight * p.any);
      held.push(slot);
    } else if (knownSlot(slot)) c.knownMissed += weight;
    if (p.head === 0) c.missedHead = Math.max(c.missedHead, weight / MOST);
    if (p.any === 0) c.missedAny = Math.max(c.missedAny, weight / MOST);
  }
  const total = Math.max(c.total, 1e-9);
  return {
    ...c,
    any: c.any / total,
    head: c.head / total,
    name: c.name / total,
    knownMissed: c.knownMissed / total,
    held,
  };
}

/** Request-level features read from the vocabulary alone: rare body-only words and words no head holds. */
function vocabularyFeatures(slots: readonly QuerySlot[]) {
  let rareBody = 0;
  let total = 0;
  let headless = 0;
  for (const slot of slots) {
    const term = state.terms.find(slot.term);
    if (term >= 0 && state.headCounts[term] === 0) {
      const frequency = state.starts[term + 1]! - state.starts[term]!;
      rareBody = Math.max(rareBody, inverseDocumentFrequency(frequency, state.count) / MOST);
    }
    const weight = importance(slot);
    total += weight;
    const inHead = slot.alternatives.some((a) => {
      const id = state.terms.find(a.term);
      return id >= 0 && state.headCounts[id]! > 0;
    });
    if (!inHead) headless += weight;
  }
  return { rareBody, headless: total > 0 ? headless / total : 0 };
}

/** Leave-one-word-out: how often the leader stays first, and its least lead then. */
function leaveOneOut(slots: readonly QuerySlot[], leader: number, lead: number) {
  if (slots.length < 2) return { stay: 1, minLead: lead };
  let stay = 0;
  let minLead = Number.POSITIVE_INFINITY;
  for (let k = 0; k < slots.length; k++) {
    const ranked = rankDocuments(
      state,
      slots.filter((_, i) => i !== k),
      options.ranking,
      50,
    ).filter((r) => r.score > 0);
    const own = ranked.find((r) => r.id === leader)?.score ?? 0;
    const other = ranked.find((r) => r.id !== leader)?.score ?? 0;
    if (ranked[0]?.id === leader) stay++;
    minLead = Math.min(minLead, own - other);
  }
  return { stay: stay / slots.length, minLead };
}

/** The share of the IDF weight of the `top` rarest words of `text` that the request does not match. */
function textMissing(slots: readonly QuerySlot[], text: string, top: number): number {
  const held = new Set(slots.flatMap((slot) => slot.alternatives.map((a) => a.term)));
  const weights = [...new Set(tokenize(text))]
    .map((term) => ({ term, weight: inverseDocumentFrequency(documentFrequency(state, term), state.count) }))
    .sort((x, y) => y.weight - x.weight)
    .slice(0, top);
  const total = weights.reduce((sum, w) => sum + w.weight, 0);
  const missing = weights.filter((w) => !held.has(w.term)).reduce((sum, w) => sum + w.weight, 0);
  return total > 0 ? missing / total : 1;
}

/** Every feature of one request as written. */
function featuresOf(query: string): { leader: string | undefined; f: Record<string, number> } {
  const slots = buildQuerySlots(query, state, options.synonyms, options.expansion);
  const [first, second] = rankDocuments(state, slots, options.ranking, 3).filter(({ score }) => score > 0);
  const score = first?.score ?? 0;
  const lead = score - (second?.score ?? 0);
  const a = coverage(slots, first?.id);
  const b = coverage(slots, second?.id);
  const vocabulary = vocabularyFeatures(slots);
  const loo = first ? leaveOneOut(slots, first.id, lead) : { stay: 0, minLead: 0 };
  const f: Record<string, number> = {
    score,
    lead,
    nameMatch: first ? nameMatch(state, slots, first.id) : 0,
    unknownWord: hasUnknownWord(slots, state) ? 1 : 0,
    coverAny: a.any,
    coverHead: a.head,
    coverName: a.name,
    coverAnySecond: b.any,
    coverHeadSecond: b.head,
    coverAnyLead: a.any - b.any,
    coverHeadLead: a.head - b.head,
    allAny: a.any >= 0.999 ? 1 : 0,
    allHead: a.head >= 0.999 ? 1 : 0,
    bodyOnly: a.any - a.head,
    slots: slots.length,
    matched: a.matched,
    short: slots.length <= 3 ? 1 : 0,
    topShare: a.any > 0 ? a.top / (a.any * a.total) : 0,
    knownMissed: a.knownMissed,
    rarestMissedHead: a.missedHead,
    rarestMissedAny: a.missedAny,
    rareBodyWord: vocabulary.rareBody,
    headlessShare: vocabulary.headless,
    sharedBy: first ? Math.log(1 + sharedBy(a.held)) : 0,
    leadRatio: score > 0 ? lead / score : 0,
    secondScore: second?.score ?? 0,
    secondNameMatch: second ? nameMatch(state, slots, second.id) : 0,
    looStay: loo.stay,
    looMinLead: loo.minLead,
    nameMissing: first ? nameMissing(state, slots, state.docs.nameOf(first.id)) : 1,
    secondNameMissing: second ? nameMissing(state, slots, state.docs.nameOf(second.id)) : 1,
    descriptionMissing: first ? textMissing(slots, state.docs.detailOf(first.id).description, 3) : 1,
    headMissing: first
      ? textMissing(slots, `${state.docs.nameOf(first.id)} ${state.docs.detailOf(first.id).description}`, 1000)
      : 1,
  };
  f.nameMissingGap = f.secondNameMissing! - f.nameMissing!;
  const leader = first ? state.docs.nameOf(first.id) : undefined;
  f.hubLead = hubFeature(hubness.leads, hubness.requests, leader);
  f.hubConfident = hubFeature(hubness.confident, hubness.requests, leader);
  return { leader, f };
}

const rows = evidenceRows(featuresOf);
const labels = new Set(rows.map((row) => row.set));
const crossValidate = (features: readonly string[]) =>
  crossValidateRows(rows, features, { offTopicLimit: OFF_TOPIC_LIMIT, wrongLimit: WRONG_LIMIT, verbose });

const chosen = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
console.log(
  `leave-one-set-out over ${labels.size} development sets (${rows.length} requests), off-topic limit ${OFF_TOPIC_LIMIT}, ` +
    `wrong limit ${WRONG_LIMIT}; confident among right first / off-topic / wrong per held-out fold:`,
);
if (chosen) crossValidate(chosen.split(","));
else {
  crossValidate(BEFORE);
  crossValidate(BASE);
  for (const [name, meaning] of Object.entries(CANDIDATES)) {
    if (verbose) console.log(`  + ${name}: ${meaning}`);
    crossValidate([...BASE, name]);
  }
}
