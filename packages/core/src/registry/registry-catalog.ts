import { analyzeDocument, type IndexedDocument } from "../search/indexed-document.js";
import { indexAnalyzedDocuments } from "../search/search-index.js";
import type { DecodedSearchIndex } from "../snapshot/search-index-codec.js";
import { LazySearchIndex } from "./lazy-search-index.js";
import { restoreOrBuildIndex } from "./restore-search-index.js";
import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { SkillCandidate } from "../sources/skill-source.js";
import type { ShadowedSkill } from "./registry-types.js";
import { skillFileOf, skillHashOf, skillNameOf } from "./skill-fields.js";
import { SortedSkills } from "./sorted-skills.js";

/** The registry's in-memory catalog: an immutable, consistent view; reloads swap in a new one (not the snapshot file). */
export interface RegistryCatalog {
  version: number;
  byName: Map<string, LoadedCandidate & { metadata: SkillMetadata }>;
  /** Winners sorted by name (code-unit order), their metadata listed when first asked for. */
  skills: SortedSkills;
  shadowed: ShadowedSkill[];
  diagnostics: SkillDiagnostic[];
  /** Built on first search (or at load with `searchIndex: "eager"`), then updated incrementally on reload. */
  index: LazySearchIndex;
}

/** What `buildCatalog` works from: the previous catalog, the candidates just loaded, and how to reach bodies. */
export interface BuildCatalogInput {
  previous: RegistryCatalog | undefined;
  loaded: LoadedCandidate[];
  sourceOrder: string[];
  sourceDiagnostics: SkillDiagnostic[];
  readBody: (entry: LoadedCandidate) => Promise<string>;
  /** Reads a body synchronously, for an index built lazily on the first search. */
  readBodySync: (entry: LoadedCandidate) => string;
  /** Build the search index now rather than on the first search. */
  eagerIndex: boolean;
  /** The search index stored beside the snapshot file, read when the index is first built; undefined without one. */
  readStoredIndex: () => DecodedSearchIndex | undefined;
  /** Called when a lazily built index has just been built and differs from the stored one (to write it). */
  onIndexBuilt?: () => void;
}

/** Names added, removed and changed since the previous catalog (each sorted). */
export interface CatalogChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

type Winner = LoadedCandidate & { metadata: SkillMetadata };

/**
 * Builds the next catalog: resolves precedence, reports shadowing and changes, updates the search index
 * incrementally. The steps: order the candidates, pick a winner per name, compare with the previous catalog
 * (analysing what changed when an index is kept up to date), then the index, the sorted list and the version.
 */
export async function buildCatalog(
  input: BuildCatalogInput,
): Promise<{ catalog: RegistryCatalog; changes: CatalogChanges; indexChanged: boolean }> {
  const { previous, loaded } = input;
  const { byName, shadowed, diagnostics } = resolvePrecedence(orderBySource(loaded, input.sourceOrder), input);
  // A first load adds every name: sorted once, for the list and the changes.
  const sorted = previous ? undefined : SortedSkills.of(byName);
  const { changes, upsert } = sorted
    ? { changes: { added: [...sorted.names()], removed: [], changed: [] }, upsert: [] }
    : await compareWithPrevious(byName, input);
  const nothingChanged =
    previous !== undefined && changes.added.length + changes.changed.length + changes.removed.length === 0;
  const winners = [...byName.values()];
  // Built before the bodies held from loading are dropped: an eager first index tokenizes those it must analyze.
  const { index, indexChanged } = nextSearchIndex({ winners, upsert, removed: changes.removed, nothingChanged }, input);
  for (const entry of loaded) entry.body = undefined;
  const skills = sorted ?? (nothingChanged && previous ? previous.skills : SortedSkills.of(byName));
  const version = !previous
    ? 1
    : nothingChanged && sameShadowing(previous.shadowed, shadowed)
      ? previous.version
      : previous.version + 1;
  return { catalog: { version, byName, skills, shadowed, diagnostics, index }, changes, indexChanged };
}

/** Candidates in precedence order: by source (the order given), then by folder or key within a source. */
function orderBySource(loaded: readonly LoadedCandidate[], sourceOrder: readonly string[]): LoadedCandidate[] {
  const rank = new Map(sourceOrder.map((id, index) => [id, index]));
  return [...loaded].sort((a, b) => {
    const bySource = (rank.get(a.sourceId) ?? 0) - (rank.get(b.sourceId) ?? 0);
    if (bySource !== 0) return bySource;
    const ka = candidateKey(a.candidate);
    const kb = candidateKey(b.candidate);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** The first candidate of each name wins; later ones are reported as shadowed, refused ones by their diagnostics. */
function resolvePrecedence(
  ordered: readonly LoadedCandidate[],
  input: Pick<BuildCatalogInput, "sourceDiagnostics">,
): { byName: Map<string, Winner>; shadowed: ShadowedSkill[]; diagnostics: SkillDiagnostic[] } {
  const byName = new Map<string, Winner>();
  const shadowed: ShadowedSkill[] = [];
  const diagnostics: SkillDiagnostic[] = [...input.sourceDiagnostics];
  for (const entry of ordered) {
    const name = skillNameOf(entry);
    if (name === undefined) {
      diagnostics.push(...entry.refused);
      continue;
    }
    const winner = byName.get(name);
    if (winner) {
      shadowed.push({
        name,
        winner: { file: winner.metadata.file, origin: winner.metadata.origin },
        shadowed: { file: entry.metadata!.file, origin: entry.metadata!.origin },
      });
      continue;
    }
    byName.set(name, entry as Winner);
  }
  return { byName, shadowed, diagnostics };
}

/**
 * Names added, changed (other content or file) and removed since the previous catalog; when the index is kept up to
 * date (already built, or built eagerly now), the analyses of the added and changed skills to put in it.
 */
async function compareWithPrevious(
  byName: ReadonlyMap<string, Winner>,
  input: BuildCatalogInput,
): Promise<{ changes: CatalogChanges; upsert: IndexedDocument[] }> {
  const { previous } = input;
  const changes: CatalogChanges = { added: [], removed: [], changed: [] };
  const upsert: IndexedDocument[] = [];
  const needBodies = previous?.index.built !== undefined;
  for (const [name, entry] of byName) {
    const before = previous?.byName.get(name);
    if (before && skillHashOf(before) === skillHashOf(entry) && skillFileOf(before) === skillFileOf(entry)) continue;
    (before ? changes.changed : changes.added).push(name);
    if (!needBodies) continue;
    upsert.push(analyzeEntry(entry, entry.body ?? (await input.readBody(entry))));
  }
  if (previous) for (const name of previous.byName.keys()) if (!byName.has(name)) changes.removed.push(name);
  changes.added.sort();
  changes.removed.sort();
  changes.changed.sort();
  return { changes, upsert };
}

/** What changed from the previous catalog: the winners, the documents to (re)index, the names removed. */
interface IndexChanges {
  winners: Winner[];
  upsert: IndexedDocument[];
  removed: string[];
  nothingChanged: boolean;
}

/**
 * The search index of the next catalog: the previous one when nothing changed, the previous built index updated with
 * the changes, one restored or built now (eager first load), or one restored or built lazily on the first search.
 * `indexChanged`: a built index differs from the stored one (to be written).
 */
function nextSearchIndex(
  { winners, upsert, removed, nothingChanged }: IndexChanges,
  input: BuildCatalogInput,
): { index: LazySearchIndex; indexChanged: boolean } {
  const { previous } = input;
  if (previous && nothingChanged) return { index: previous.index, indexChanged: false };
  // The stored index serves the skills it still describes; the others are read and tokenized.
  const restore = () =>
    restoreOrBuildIndex(winners, input.readStoredIndex, (entry) =>
      analyzeEntry(entry, entry.body ?? input.readBodySync(entry)),
    );
  const lazy = () => {
    const { index, rewrite } = restore();
    if (rewrite) input.onIndexBuilt?.();
    return index;
  };
  const builtIndex = previous?.index.built;
  if (builtIndex)
    return {
      index: new LazySearchIndex(lazy, indexAnalyzedDocuments(builtIndex, { upsert, remove: removed })),
      indexChanged: upsert.length + removed.length > 0,
    };
  if (previous === undefined && input.eagerIndex) {
    const { index, rewrite } = restore();
    return { index: new LazySearchIndex(lazy, index), indexChanged: rewrite };
  }
  return { index: new LazySearchIndex(lazy), indexChanged: false };
}

/** Tokenizes the skill now. */
function analyzeEntry(entry: Winner, body: string): IndexedDocument {
  const { name, description, file } = entry.metadata;
  return analyzeDocument({ name, description, body, path: file });
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
