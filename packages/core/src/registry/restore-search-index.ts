import type { DocumentDetail, DocumentTable } from "../search/index-state.js";
import { rebuildState } from "../search/index-state.js";
import type { IndexedDocument } from "../search/indexed-document.js";
import { indexAnalyzedDocuments, indexFromState, type SearchIndex } from "../search/search-index.js";
import {
  metadataCheck,
  metadataDigest,
  type DecodedSearchIndex,
  type StoredDocumentKey,
} from "../snapshot/search-index-codec.js";
import type { SkillMetadata } from "../skill/skill-types.js";
import { skillDescriptionOf, skillHashOf, skillNameOf, type LoadedSkill } from "./skill-fields.js";

/** A skill the index covers: name, description and content hash read without making a served skill's metadata. */
type IndexedSkill = LoadedSkill;

const nameOf = (skill: IndexedSkill): string => skillNameOf(skill)!;

/**
 * The documents of a restored index: the registry's skills by document id, their names read once (the ranking asks
 * for one per document it touches), details made when a result needs them.
 */
class SkillDocuments implements DocumentTable {
  constructor(
    private readonly skills: ReadonlyArray<IndexedSkill | undefined>,
    private readonly names: ReadonlyArray<string | undefined>,
  ) {}
  nameOf(id: number): string {
    return this.names[id]!;
  }
  detailOf(id: number): DocumentDetail {
    const { name, description, file } = this.skills[id]!.metadata;
    return { name, description, path: file };
  }
}

/** What a skill's stored document must have been analyzed from. */
export function storedKeyOf(metadata: SkillMetadata): StoredDocumentKey {
  return { hash: metadata.hash, name: metadata.name, description: metadata.description };
}

/**
 * The index over `skills`: the stored one (`read`) used in place where its documents still describe the skills (same
 * content hash, name and description), the documents of skills that changed or vanished dropped and the skills it lacks
 * analyzed (`analyze`) and added; every skill analyzed when nothing is stored. `rewrite` says the stored file is not
 * this index (write it again).
 */
export function restoreOrBuildIndex<Skill extends IndexedSkill>(
  skills: readonly Skill[],
  read: () => DecodedSearchIndex | undefined,
  analyze: (skill: Skill) => IndexedDocument,
): { index: SearchIndex; rewrite: boolean } {
  const stored = read();
  if (!stored) return { index: indexAnalyzedDocuments(undefined, { upsert: skills.map(analyze) }), rewrite: true };
  const { state, hashes, checks } = stored;
  // Every content hash in one string (one native call), compared in place.
  const hex = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength).toString("hex");
  // The usual case: the same skills in the same order as when the index was built (the registry's order is stable),
  // each document's hash its skill's; then one digest checks every name and description.
  const whole = samePositions(skills, hex, state.count) ? restoredIfSame(stored, skills) : undefined;
  if (whole) return whole;
  const byHash = new Map<string, Skill>();
  for (const skill of skills) if (!byHash.has(skillHashOf(skill))) byHash.set(skillHashOf(skill), skill);
  const skillOf = new Array<Skill | undefined>(state.count);
  let found = 0;
  for (let id = 0; id < state.count; id++) {
    skillOf[id] = byHash.get(hex.slice(64 * id, 64 * id + 64));
    if (skillOf[id]) found++;
  }
  // Every document still has its skill's content: one digest checks every name and description.
  const all = found === state.count && byHash.size === state.count && skills.length === state.count;
  const moved = all ? restoredIfSame(stored, skillOf) : undefined;
  if (moved) return moved;
  const dead = new Uint8Array(state.count);
  const matched = new Set<Skill>();
  for (let id = 0; id < state.count; id++) {
    const skill = skillOf[id];
    if (skill && !matched.has(skill) && checks[id] === metadataCheck(nameOf(skill), skillDescriptionOf(skill)))
      matched.add(skill);
    else {
      skillOf[id] = undefined;
      dead[id] = 1;
    }
  }
  const alive = skillOf.map((skill) => (skill ? nameOf(skill) : undefined));
  const restored = { ...state, docs: new SkillDocuments(skillOf, alive) };
  const missing = skills.filter((skill) => !matched.has(skill));
  if (matched.size === state.count && missing.length === 0) return { index: indexFromState(restored), rewrite: false };
  return { index: indexFromState(rebuildState(restored, dead, missing.map(analyze))), rewrite: true };
}

/**
 * The stored index used in place with `skills` (every document's skill, by document id) as its documents, when one
 * digest of their names and descriptions is the stored one; undefined otherwise.
 */
function restoredIfSame(
  stored: DecodedSearchIndex,
  skills: ReadonlyArray<IndexedSkill | undefined>,
): { index: SearchIndex; rewrite: boolean } | undefined {
  const names = skills.map((skill) => (skill ? nameOf(skill) : undefined));
  const digest = metadataDigest(
    stored.state.count,
    (i) => names[i]!,
    (i) => skillDescriptionOf(skills[i]!),
  );
  if (digest !== stored.digest) return undefined;
  return { index: indexFromState({ ...stored.state, docs: new SkillDocuments(skills, names) }), rewrite: false };
}

/** Whether skill `id` has document `id`'s content hash for every id (`hex`: all hashes in document order). */
function samePositions(skills: ReadonlyArray<IndexedSkill>, hex: string, count: number): boolean {
  if (skills.length !== count) return false;
  for (let id = 0; id < count; id++) {
    const hash = skillHashOf(skills[id]!);
    if (hash.length !== 64 || !hex.startsWith(hash, 64 * id)) return false;
  }
  return true;
}
