import { resolve } from "node:path";
import { parseOptions } from "../errors/parse-options.js";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import type { SkillEmbeddings } from "../search/skill-embeddings.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";
import type { SkillDiagnostic, SkillLayer, SkillMetadata } from "../skill/skill-types.js";
import { defaultSnapshotFile } from "../snapshot/snapshot-location.js";
import type { SkillSource } from "../sources/skill-source.js";
import { createCatalogView } from "./catalog-view.js";
import { readCandidateBody, readCandidateBodySync } from "./load-candidate.js";
import { RegistryLoader } from "./registry-loader.js";
import { RegistryPersistence } from "./registry-persistence.js";
import { RegistrySearch } from "./registry-search.js";
import { buildCatalog, type RegistryCatalog } from "./registry-catalog.js";
import type {
  ReadSkillFileOptions,
  ReloadReport,
  ShadowedSkill,
  SkillCatalog,
  SkillFileContent,
  SkillFileEntry,
  SkillRegistry,
  SkillViewOptions,
} from "./registry-types.js";
import { checkMaxBytesOption, listCandidateFiles, readCandidateFile } from "./skill-file-access.js";
import { skillRegistryOptionsSchema } from "./skill-registry-options.js";
import { SourceWatcher, type WatchSettings } from "./source-watcher.js";
import { suggestNames } from "./suggest-names.js";

/** Options of `createSkillRegistry`. */
export interface SkillRegistryOptions {
  /** Where skills come from; precedence by layer (user < project < explicit), then by order in this list. */
  sources: SkillSource[];
  /** Refuse skills that break a spec rule instead of loading them with diagnostics. @default false */
  strict?: boolean;
  /** Largest SKILL.md accepted, in bytes. @default 1048576 */
  maxSkillMdBytes?: number;
  /**
   * When to build the search index: `lazy` on the first `search()` (loading stays cheap for agents that never search),
   * `eager` while loading. @default "lazy"
   */
  searchIndex?: "lazy" | "eager";
  /**
   * Persistent snapshot of folder sources, so a cold start stats each SKILL.md and parses only what changed:
   * `true` keeps it in `node_modules/.cache/skillgraph` (nearest `node_modules` up from the working folder to the
   * project root) or the XDG cache folder; a file someone else than this user or root could have written is ignored;
   * a string is the snapshot file to use (e.g. one built by `skillgraph index`), `false` turns it off.
   * @default true
   */
  snapshot?: boolean | string;
  /**
   * Watch folder sources and reload on change (one non-recursive `fs.watch` per folder, debounced; sources that cannot be watched are
   * polled by stat). `close()` stops it. @default false
   */
  watch?: boolean | { debounceMs?: number; pollMs?: number };
  /**
   * An embeddings model (any LangChain `Embeddings`, e.g. `OpenAIEmbeddings`; core only needs `embedDocuments` and
   * `embedQuery`). `searchAsync` then fuses the lexical ranking with cosine similarity over each skill's name and
   * description; vectors are cached by content hash, so a reload re-embeds only changed skills. `search` stays lexical.
   */
  embeddings?: SkillEmbeddings;
}

/** Settings fixed when the registry is created. */
interface RegistrySettings {
  strict: boolean;
  maxBytes: number;
  eagerIndex: boolean;
  snapshotFile: { path: string; explicit: boolean } | undefined;
  /** Ids of the sources that read from disk, sorted (what a snapshot covers). */
  diskSourceIds: string[];
  embeddings: SkillEmbeddings | undefined;
}

const LAYER_RANK: Record<SkillLayer, number> = { user: 0, project: 1, explicit: 2 };

/**
 * Loads skills from its sources into a layered, reloadable registry.
 * @example
 * const registry = await createSkillRegistry({ sources: [skillsFromDirectory("./skills")] });
 * registry.list().map((skill) => skill.name);
 */
export const createSkillRegistry: (options: SkillRegistryOptions) => Promise<SkillRegistry> = createLayeredRegistry;

/** Creates the registry class itself; exported as {@link createSkillRegistry} with the public type (`buildRegistrySnapshot` needs `writeSnapshot`). */
export async function createLayeredRegistry(options: SkillRegistryOptions): Promise<LayeredSkillRegistry> {
  const {
    sources,
    strict,
    maxSkillMdBytes: maxBytes,
    searchIndex,
    snapshot,
    watch,
    embeddings,
  } = parseOptions(skillRegistryOptionsSchema, options);
  const diskSourceIds = sources
    .filter((source) => source.kind === "directory" || source.kind === "npm")
    .map((source) => source.id)
    .sort();
  const snapshotFile =
    snapshot === false || diskSourceIds.length === 0
      ? undefined
      : snapshot === true
        ? { path: defaultSnapshotFile(diskSourceIds), explicit: false }
        : { path: resolve(snapshot), explicit: true };
  const registry = new LayeredSkillRegistry(sources, {
    strict,
    maxBytes,
    eagerIndex: searchIndex === "eager",
    snapshotFile,
    diskSourceIds,
    embeddings,
  });
  await registry.reload();
  if (watch) registry.startWatching(watch);
  return registry;
}

/**
 * The registry: a reload is a short pipeline — read the snapshot file (cold start), let the loader reconcile the
 * sources with what was loaded before, persist the snapshot, build the next immutable catalog (precedence, lookups,
 * search index), swap it in, persist search analyses in the background. Reads go to the current catalog.
 */
export class LayeredSkillRegistry implements SkillRegistry {
  private catalog: RegistryCatalog | undefined;
  private reloading: Promise<ReloadReport> | undefined;
  private loads = 0;
  private watcher: SourceWatcher | undefined;
  private readonly ordered: SkillSource[];
  private readonly loader: RegistryLoader;
  private readonly persistence: RegistryPersistence;
  private readonly searcher: RegistrySearch;

  constructor(
    sources: SkillSource[],
    private readonly settings: RegistrySettings,
  ) {
    // Highest precedence first: layer rank descending, then list order.
    this.ordered = sources
      .map((source, index) => ({ source, rank: LAYER_RANK[source.layer] * 10_000 - index }))
      .sort((a, b) => b.rank - a.rank)
      .map(({ source }) => source);
    this.loader = new RegistryLoader(this.ordered, settings);
    this.persistence = new RegistryPersistence(settings, this.ordered);
    this.searcher = new RegistrySearch(settings.embeddings);
  }

  get version(): number {
    return this.current().version;
  }

  reload(): Promise<ReloadReport> {
    // One reload at a time; callers arriving meanwhile share its result.
    this.reloading ??= this.doReload().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async doReload(): Promise<ReloadReport> {
    const firstLoad = this.loads++ === 0;
    const persisted = firstLoad ? await this.persistence.readSnapshot() : undefined;
    const pass = await this.loader.load(persisted?.snapshot, { firstLoad });
    const diagnostics = [
      ...(persisted?.diagnostics ?? []),
      ...pass.diagnostics,
      ...(await this.persistence.saveSnapshot(pass.cache, pass)),
    ];
    const next = await buildCatalog({
      previous: this.catalog,
      loaded: pass.loaded,
      sourceOrder: this.ordered.map((source) => source.id),
      sourceDiagnostics: diagnostics,
      readBody: (entry) => readCandidateBody(entry, this.settings),
      readBodySync: (entry) => readCandidateBodySync(entry, this.settings.maxBytes),
      eagerIndex: this.settings.eagerIndex,
      readStoredIndex: () => this.persistence.readStoredIndex(),
      onIndexBuilt: () => this.persistence.persistIndex(() => this.current()),
    });
    this.loader.commit(pass);
    this.catalog = next.catalog;
    // The search index lives beside the snapshot: rewritten when this load changed it (eager index, reload with
    // changes), in the background once this load is in place, so a reload does not wait for it.
    if (next.indexChanged) this.persistence.persistIndex(() => this.current());
    const { reread, reused, fromSnapshot, verified } = pass;
    return { ...next.changes, reread, reused, fromSnapshot, verified, version: next.catalog.version };
  }

  /** Starts the watcher (once). */
  startWatching(settings: WatchSettings): void {
    this.watcher ??= new SourceWatcher(this.ordered, settings, () => this.reload());
    this.watcher.start();
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    await this.reloading?.catch(() => {});
    await this.persistence.flush();
  }

  /** Writes the current state as a snapshot file with its search index beside it (for `buildRegistrySnapshot`). */
  async writeSnapshot(path: string): Promise<number> {
    this.current().index.get();
    return this.persistence.writeSnapshotTo(path, this.loader.current(), this.current());
  }

  private current(): RegistryCatalog {
    if (!this.catalog) throw new Error("registry used before its first load");
    return this.catalog;
  }

  list(): SkillMetadata[] {
    return this.current().skills.list();
  }

  get(name: string): SkillMetadata | undefined {
    return this.current().byName.get(name)?.metadata;
  }

  has(name: string): boolean {
    return this.current().byName.has(name);
  }

  private entry(name: string) {
    const catalog = this.current();
    const entry = catalog.byName.get(name);
    if (!entry)
      throw new SkillNotFoundError({
        skillName: name,
        suggestions: suggestNames(name, catalog.skills.names()),
      });
    return entry;
  }

  async readBody(name: string): Promise<string> {
    return readCandidateBody(this.entry(name), this.settings);
  }

  async listFiles(name: string): Promise<SkillFileEntry[]> {
    return listCandidateFiles(this.entry(name));
  }

  async readFile(name: string, relativePath: string, options: ReadSkillFileOptions = {}): Promise<SkillFileContent> {
    checkMaxBytesOption(options.maxBytes);
    return readCandidateFile(name, this.entry(name), relativePath, options);
  }

  search(query: string | readonly string[], options?: SearchOptions): SearchResult[] {
    return this.searcher.search(this.current(), query, options);
  }

  async searchAsync(query: string | readonly string[], options: SearchOptions = {}): Promise<SearchResult[]> {
    return this.searcher.searchAsync(this.current(), query, options);
  }

  view(options: SkillViewOptions): SkillCatalog {
    return createCatalogView(this, options);
  }

  shadowed(): ShadowedSkill[] {
    return this.current().shadowed;
  }

  diagnostics(): SkillDiagnostic[] {
    return this.current().diagnostics;
  }
}
