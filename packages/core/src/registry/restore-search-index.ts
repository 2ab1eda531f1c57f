import type { DocumentDetail, DocumentTable } from "../search/index-state.js";
import { rebuildState } from "../search/index-state.js";
import type { IndexedDocument } from "../search/indexed-document.js";
import { indexAnalyzedDocuments, indexFromState, type SearchIndex } from "../search/search-index.js";
import { metadataCheck, type DecodedSearchIndex, type StoredDocumentKey } from "../snapshot/search-index-codec.js";
import type { SkillMetadata } from "../skill/skill-types.js";

/** A skill the index covers: its metadata (name, description, file, content hash). */
interface IndexedSkill {
  metadata: SkillMetadata;
}

/** The documents of a restored index: the registry's skills by document id, details made when a result needs them. */
class SkillDocuments implements DocumentTable {
  constructor(private readonly skills: ReadonlyArray<IndexedSkill | undefined>) {}
  nameOf(id: number): string {
    return this.skills[id]!.metadata.name;
  }
  detailOf(id: number): DocumentDetail {
    const { name, description, file } = this.skills[id]!.metadata;
    return { name, description, path: file };
  }
}

/** What a skill's stored document must have been analyzed from. */
export function storedKeyOf(metadata: SkillMetadata): StoredDocumentKey {
  return { hash: metadata.hash, check: metadataCheck(metadata.name, metadata.description) };
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
  const byHash = new Map<string, Skill>();
  for (const skill of skills) if (!byHash.has(skill.metadata.hash)) byHash.set(skill.metadata.hash, skill);
  const bytes = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
  const skillOf = new Array<Skill | undefined>(state.count);
  const dead = new Uint8Array(state.count);
  const matched = new Set<Skill>();
  for (let id = 0; id < state.count; id++) {
    const skill = byHash.get(bytes.toString("hex", 32 * id, 32 * id + 32));
    const { name, description } = skill?.metadata ?? { name: "", description: "" };
    if (skill && !matched.has(skill) && checks[id] === metadataCheck(name, description)) {
      skillOf[id] = skill;
      matched.add(skill);
    } else dead[id] = 1;
  }
  const restored = { ...state, docs: new SkillDocuments(skillOf) };
  const missing = skills.filter((skill) => !matched.has(skill));
  if (matched.size === state.count && missing.length === 0) return { index: indexFromState(restored), rewrite: false };
  return { index: indexFromState(rebuildState(restored, dead, missing.map(analyze))), rewrite: true };
}
