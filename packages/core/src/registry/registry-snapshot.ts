import { analyzeDocument, type IndexedDocument } from "../search/indexed-document.js";
import { indexAnalyzedDocuments } from "../search/search-index.js";
import { analysisKey, restoreSearchAnalysis } from "../snapshot/snapshot-search-index.js";
import { LazySearchIndex } from "./lazy-search-index.js";
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
  /** The search analysis the index holds for this skill, once indexed. */
  analyzed?: IndexedDocument;
  /** `analyzed` is what the snapshot's search-index file holds (restored from it, or written to it since). */
  searchSaved?: boolean;
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
  /** Stored analyses by `analysisKey` (the snapshot's search-index file), read on first use; empty without one. */
  storedAnalyses: () => ReadonlyMap<string, unknown>;
  /** Called when a lazily built index has just been built (e.g. to persist its analyses). */
  onIndexBuilt?: () => void;
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
  const upsert: IndexedDocument[] = [];
  const builtIndex = previous?.index.built;
  const needBodies = builtIndex !== undefined || (previous === undefined && input.eagerIndex);
  for (const [name, entry] of byName) {
    const before = previous?.byName.get(name);
    if (before && before.metadata.hash === entry.metadata.hash && before.metadata.file === entry.metadata.file)
      continue;
    (before ? changed : added).push(name);
    if (!needBodies) continue;
    const stored = restoredAnalysis(entry, input.storedAnalyses);
    upsert.push(stored ?? analyzeEntry(entry, entry.body ?? (await input.readBody(entry))));
  }
  if (previous) for (const name of previous.byName.keys()) if (!byName.has(name)) removed.push(name);
  for (const entry of loaded) entry.body = undefined;

  const nothingChanged = previous !== undefined && added.length === 0 && changed.length === 0 && removed.length === 0;
  const winners = [...byName.values()];
  // Skills whose analysis the snapshot file holds are not read nor tokenized again; the others are.
  const documents = () =>
    winners.map(
      (entry) => restoredAnalysis(entry, input.storedAnalyses) ?? analyzeEntry(entry, input.readBodySync(entry)),
    );
  let index: LazySearchIndex;
  if (previous && nothingChanged) index = previous.index;
  else if (builtIndex)
    index = new LazySearchIndex(documents, indexAnalyzedDocuments(builtIndex, { upsert, remove: removed }));
  else
    index = new LazySearchIndex(
      documents,
      previous === undefined && input.eagerIndex ? indexAnalyzedDocuments(undefined, { upsert }) : undefined,
      input.onIndexBuilt,
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

/** The entry's analysis if it has one, else the stored one for its content when valid (then kept on the entry). */
function restoredAnalysis(
  entry: LoadedCandidate & { metadata: SkillMetadata },
  stored: () => ReadonlyMap<string, unknown>,
): IndexedDocument | undefined {
  if (entry.analyzed) return entry.analyzed;
  const value = stored().get(analysisKey(entry.metadata));
  if (value === undefined) return undefined;
  const { name, description, file } = entry.metadata;
  entry.analyzed = restoreSearchAnalysis(value, { name, description, path: file });
  entry.searchSaved = entry.analyzed !== undefined;
  return entry.analyzed;
}

/** Tokenizes the skill now and keeps the analysis on the entry (the snapshot writer stores it). */
function analyzeEntry(entry: LoadedCandidate & { metadata: SkillMetadata }, body: string): IndexedDocument {
  const { name, description, file } = entry.metadata;
  entry.searchSaved = false;
  return (entry.analyzed = analyzeDocument({ name, description, body, path: file }));
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
