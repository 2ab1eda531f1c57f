import { createSearchIndex, type SearchIndex } from "../search/search-index.js";
import { LazySearchIndex } from "./lazy-search-index.js";
import type { SearchDocument } from "../search/search-types.js";
import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { SkillCandidate } from "../sources/skill-source.js";
import type { ShadowedSkill } from "./registry-types.js";

/** A candidate after loading: its metadata (or why it was refused) and, until indexed, its body. */
export interface LoadedCandidate {
  candidate: SkillCandidate;
  sourceId: string;
  /** Undefined when the skill could not be loaded (or was refused in strict mode). */
  metadata: SkillMetadata | undefined;
  /** Diagnostics of a refused skill (a loaded skill carries its own in `metadata.diagnostics`). */
  refused: SkillDiagnostic[];
  /** Body held only between loading and indexing, then dropped. */
  body: string | undefined;
  /** sha256 of the SKILL.md bytes read (also when the skill was refused after reading), else undefined. */
  hash: string | undefined;
  /** Read within the racy window of its last change: a later equal stat is not proof enough, the hash is compared. */
  racy: boolean;
}

/** An immutable, consistent view of the registry; reloads swap in a new one. */
export interface RegistrySnapshot {
  version: number;
  byName: Map<string, LoadedCandidate & { metadata: SkillMetadata }>;
  /** Winners sorted by name (code-unit order). */
  list: SkillMetadata[];
  shadowed: ShadowedSkill[];
  diagnostics: SkillDiagnostic[];
  /** Built on first search (or at load with `searchIndex: "eager"`), then updated incrementally on reload. */
  index: LazySearchIndex;
}

/** Builds the next snapshot: resolves precedence, reports shadowing and changes, updates the search index incrementally. */
export async function buildSnapshot(input: {
  previous: RegistrySnapshot | undefined;
  loaded: LoadedCandidate[];
  sourceOrder: string[];
  sourceDiagnostics: SkillDiagnostic[];
  readBody: (entry: LoadedCandidate) => Promise<string>;
  /** Reads a body synchronously, for an index built lazily on the first search. */
  readBodySync: (entry: LoadedCandidate) => string;
  /** Build the search index now rather than on the first search. */
  eagerIndex: boolean;
}): Promise<{ snapshot: RegistrySnapshot; changes: { added: string[]; removed: string[]; changed: string[] } }> {
  const { previous, loaded, sourceOrder } = input;
  const rank = new Map(sourceOrder.map((id, index) => [id, index]));
  const ordered = [...loaded].sort((a, b) => {
    const bySource = (rank.get(a.sourceId) ?? 0) - (rank.get(b.sourceId) ?? 0);
    if (bySource !== 0) return bySource;
    const ka = candidateKey(a.candidate);
    const kb = candidateKey(b.candidate);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });

  const byName = new Map<string, LoadedCandidate & { metadata: SkillMetadata }>();
  const shadowed: ShadowedSkill[] = [];
  const diagnostics: SkillDiagnostic[] = [...input.sourceDiagnostics];
  for (const entry of ordered) {
    if (!entry.metadata) {
      diagnostics.push(...entry.refused);
      continue;
    }
    const winner = byName.get(entry.metadata.name);
    if (winner) {
      shadowed.push({
        name: entry.metadata.name,
        winner: { file: winner.metadata.file, origin: winner.metadata.origin },
        shadowed: { file: entry.metadata.file, origin: entry.metadata.origin },
      });
      continue;
    }
    byName.set(entry.metadata.name, entry as LoadedCandidate & { metadata: SkillMetadata });
  }

  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const upsert: SearchDocument[] = [];
  const builtIndex = previous?.index.built;
  const needBodies = builtIndex !== undefined || (previous === undefined && input.eagerIndex);
  for (const [name, entry] of byName) {
    const before = previous?.byName.get(name);
    if (before && before.metadata.hash === entry.metadata.hash && before.metadata.file === entry.metadata.file)
      continue;
    (before ? changed : added).push(name);
    if (!needBodies) continue;
    const body = entry.body ?? (await input.readBody(entry));
    upsert.push({ name, description: entry.metadata.description, body, path: entry.metadata.file });
  }
  if (previous) for (const name of previous.byName.keys()) if (!byName.has(name)) removed.push(name);
  for (const entry of loaded) entry.body = undefined;

  const nothingChanged = previous !== undefined && added.length === 0 && changed.length === 0 && removed.length === 0;
  const winners = [...byName.values()];
  const documents = () =>
    winners.map((entry) => ({
      name: entry.metadata.name,
      description: entry.metadata.description,
      body: input.readBodySync(entry),
      path: entry.metadata.file,
    }));
  let index: LazySearchIndex;
  if (previous && nothingChanged) index = previous.index;
  else if (builtIndex) index = new LazySearchIndex(documents, builtIndex.update({ upsert, remove: removed }));
  else
    index = new LazySearchIndex(
      documents,
      previous === undefined && input.eagerIndex ? createSearchIndex(upsert) : undefined,
    );
  const list =
    nothingChanged && previous
      ? previous.list
      : winners.map((entry) => entry.metadata).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const version = previous
    ? nothingChanged && sameShadowing(previous.shadowed, shadowed)
      ? previous.version
      : previous.version + 1
    : 1;
  return {
    snapshot: { version, byName, list, shadowed, diagnostics, index },
    changes: { added: added.sort(), removed: removed.sort(), changed: changed.sort() },
  };
}

function candidateKey(candidate: SkillCandidate): string {
  return candidate.kind === "disk" ? candidate.dir : candidate.key;
}

function sameShadowing(a: ShadowedSkill[], b: ShadowedSkill[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, i) => item.name === b[i]!.name && item.shadowed.file === b[i]!.shadowed.file)
  );
}
