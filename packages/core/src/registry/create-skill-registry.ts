import { SkillSourceError } from "../errors/skill-source-error.js";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { SkillPathError } from "../errors/skill-path-error.js";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";
import type { SkillDiagnostic, SkillLayer, SkillMetadata } from "../skill/skill-types.js";
import type { DiskSkillCandidate, RemoteSkillCandidate, SkillSource } from "../sources/skill-source.js";
import { resolve } from "node:path";
import type { SnapshotEntry } from "../snapshot/snapshot-format.js";
import {
  readSnapshotFile,
  snapshotKey,
  writeSnapshotFile,
  type ReadSnapshot,
  type ReadSnapshotEntry,
} from "../snapshot/snapshot-file.js";
import { defaultSnapshotFile } from "../snapshot/snapshot-location.js";
import { analysisKey, readStoredAnalyses, writeStoredAnalyses } from "../snapshot/snapshot-search-index.js";
import type { IndexedDocument } from "../search/indexed-document.js";
import { SourceWatcher, type WatchSettings } from "./source-watcher.js";
import { embeddingsProblem, type SkillEmbeddings } from "../search/skill-embeddings.js";
import { cosine, EmbeddingCache } from "../search/embedding-cache.js";
import { fuseRankings } from "../search/fuse-rankings.js";
import { buildSnapshot, type LoadedCandidate, type RegistrySnapshot } from "./registry-snapshot.js";
import { loadCandidate, readCandidateBody, readCandidateBodySync } from "./load-candidate.js";
import { checkRelativePath, DEFAULT_MAX_RESOURCE_BYTES, listSkillFiles, readSkillResource } from "./skill-resources.js";
import { createCatalogView } from "./catalog-view.js";
import { suggestNames } from "./suggest-names.js";
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
import { mapLimit } from "../internal/concurrency-limit.js";
import { sameFileIdentity } from "../skill/skill-file-identity.js";

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
   * `true` keeps it in `node_modules/.cache/skillgraph` (nearest `node_modules` up from the working folder) or the
   * XDG cache folder, a string is the snapshot file to use (e.g. one built by `skillgraph index`), `false` turns it off.
   * @default true
   */
  snapshot?: boolean | string;
  /**
   * Watch folder sources and reload on change (recursive `fs.watch`, debounced; sources that cannot be watched are
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
export async function createSkillRegistry(options: SkillRegistryOptions): Promise<SkillRegistry> {
  return createLayeredRegistry(options);
}

/** Creates the registry class itself (internal: `buildRegistrySnapshot` needs `writeSnapshot`). */
export async function createLayeredRegistry(options: SkillRegistryOptions): Promise<LayeredSkillRegistry> {
  if (!Array.isArray(options.sources))
    throw new InvalidOptionsError({
      option: "sources",
      value: options.sources,
      message: "must be an array of skill sources",
    });
  const maxBytes = options.maxSkillMdBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0)
    throw new InvalidOptionsError({
      option: "maxSkillMdBytes",
      value: maxBytes,
      message: "must be a positive integer",
    });
  const ids = new Set<string>();
  for (const source of options.sources) {
    if (ids.has(source.id))
      throw new InvalidOptionsError({
        option: "sources",
        value: source.id,
        message: `source '${source.id}' is listed twice`,
      });
    ids.add(source.id);
  }
  const searchIndex = options.searchIndex ?? "lazy";
  if (searchIndex !== "lazy" && searchIndex !== "eager")
    throw new InvalidOptionsError({ option: "searchIndex", value: searchIndex, message: 'must be "lazy" or "eager"' });
  const snapshot = options.snapshot ?? true;
  if (typeof snapshot !== "boolean" && (typeof snapshot !== "string" || snapshot === ""))
    throw new InvalidOptionsError({
      option: "snapshot",
      value: snapshot,
      message: "must be a boolean or a snapshot file path",
    });
  const watch = checkWatchOption(options.watch);
  if (options.embeddings !== undefined) {
    const problem = embeddingsProblem(options.embeddings);
    if (problem) throw new InvalidOptionsError({ option: "embeddings", value: options.embeddings, message: problem });
  }
  const diskSourceIds = options.sources
    .filter((source) => source.kind === "directory" || source.kind === "npm")
    .map((source) => source.id)
    .sort();
  const snapshotFile =
    snapshot === false || diskSourceIds.length === 0
      ? undefined
      : snapshot === true
        ? { path: defaultSnapshotFile(diskSourceIds), explicit: false }
        : { path: resolve(snapshot), explicit: true };
  const registry = new LayeredSkillRegistry(options.sources, {
    strict: options.strict ?? false,
    maxBytes,
    eagerIndex: searchIndex === "eager",
    snapshotFile,
    diskSourceIds,
    embeddings: options.embeddings,
  });
  await registry.reload();
  if (watch) registry.startWatching(watch);
  return registry;
}

function checkWatchOption(watch: SkillRegistryOptions["watch"]): WatchSettings | undefined {
  if (watch === undefined || watch === false) return undefined;
  const given = watch === true ? {} : watch;
  if (typeof given !== "object" || given === null)
    throw new InvalidOptionsError({
      option: "watch",
      value: watch,
      message: "must be a boolean or { debounceMs, pollMs }",
    });
  const debounceMs = given.debounceMs ?? 50;
  const pollMs = given.pollMs ?? 1000;
  for (const [option, value] of [
    ["watch.debounceMs", debounceMs],
    ["watch.pollMs", pollMs],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new InvalidOptionsError({ option, value, message: "must be a non-negative number of milliseconds" });
  }
  return { debounceMs, pollMs: Math.max(pollMs, 10) };
}

/** The registry implementation. */
export class LayeredSkillRegistry implements SkillRegistry {
  private snapshot: RegistrySnapshot | undefined;
  private cache = new Map<string, LoadedCandidate>();
  private reloading: Promise<ReloadReport> | undefined;
  private loads = 0;
  private persistedDiskCount = -1;
  private watcher: SourceWatcher | undefined;
  private embeddingCache: EmbeddingCache | undefined;
  private embedding: Promise<void> = Promise.resolve();
  private analysesWrite: Promise<void> = Promise.resolve();
  /** Analyses read from the snapshot's search-index file, until the index has restored them. */
  private storedAnalyses: ReadonlyMap<string, unknown> | undefined;
  private readonly ordered: Array<{ source: SkillSource; rank: number }>;

  constructor(
    sources: SkillSource[],
    private readonly settings: RegistrySettings,
  ) {
    // Highest precedence first: layer rank descending, then list order.
    this.ordered = sources
      .map((source, index) => ({ source, rank: LAYER_RANK[source.layer] * 10_000 - index }))
      .sort((a, b) => b.rank - a.rank);
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
    const sourceDiagnostics: SkillDiagnostic[] = [];
    const { snapshotFile } = this.settings;
    let persisted: ReadSnapshot | undefined;
    if (firstLoad && snapshotFile) {
      const read = await readSnapshotFile(snapshotFile.path, {
        settings: { strict: this.settings.strict, maxBytes: this.settings.maxBytes },
        sources: this.settings.diskSourceIds,
      });
      persisted = read.snapshot;
      sourceDiagnostics.push(...read.diagnostics);
      this.persistedDiskCount = persisted?.entries.size ?? -1;
      if (persisted) {
        for (const { source } of this.ordered) {
          const state = persisted.scanState[source.id];
          if (state === undefined || !source.importScanState || source.importScanState(state, persisted.writtenNs))
            continue;
          const message = `registry snapshot ${snapshotFile.path}: folder listings of ${source.id} are malformed; listing the folders again`;
          sourceDiagnostics.push({
            code: "registry-snapshot-invalid",
            severity: "warning",
            message,
            path: snapshotFile.path,
          });
        }
      }
    }
    const scans = await Promise.all(
      this.ordered.map(async ({ source }) => {
        try {
          return { source, scan: await source.scan() };
        } catch (error) {
          // A named folder that is missing or unreadable: createSkillRegistry rejects; a later reload reports it.
          if (SkillSourceError.isInstance(error)) {
            if (firstLoad) throw error;
            const code = error.problem === "missing" ? "source-missing" : "source-unreadable";
            const diagnostic: SkillDiagnostic = { code, severity: "error", message: error.message, path: error.path };
            return { source, scan: { candidates: [], diagnostics: [diagnostic] } };
          }
          const diagnostic: SkillDiagnostic = {
            code: "source-failed",
            severity: "error",
            message: `source ${source.id}: ${(error as Error).message}`,
            path: source.id,
          };
          return { source, scan: { candidates: [], diagnostics: [diagnostic] } };
        }
      }),
    );
    const nextCache = new Map<string, LoadedCandidate>();
    let reread = 0;
    let reused = 0;
    let fromSnapshot = 0;
    let verified = 0;
    let diskCount = 0;
    const loaded: LoadedCandidate[] = [];
    await Promise.all(
      scans.map(async ({ source, scan }) => {
        sourceDiagnostics.push(...scan.diagnostics);
        await mapLimit(scan.candidates, 16, async (candidate) => {
          const key =
            candidate.kind === "disk"
              ? snapshotKey(source.id, candidate.file)
              : `${source.id}\0${candidate.kind}:${candidate.key}`;
          if (candidate.kind === "disk") diskCount++;
          const previous = this.cache.get(key);
          const stored = previous ? undefined : persisted?.entries.get(key);
          let entry: LoadedCandidate;
          if (previous && !previous.racy && sameCandidate(previous, candidate)) {
            entry = previous;
            reused++;
          } else if (
            stored &&
            !stored.racy &&
            candidate.kind === "disk" &&
            stored.dir === candidate.dir &&
            stored.root === candidate.root &&
            sameFileIdentity(stored.identity, candidate.identity)
          ) {
            entry = fromStored(stored, candidate, source);
            reused++;
            fromSnapshot++;
          } else {
            const before = previous ?? stored;
            entry = await loadCandidate(candidate, source, this.settings, before);
            const beforeIdentity = previous?.candidate.kind === "disk" ? previous.candidate.identity : stored?.identity;
            if (
              before &&
              entry.hash !== undefined &&
              entry.hash === before.hash &&
              candidate.kind === "disk" &&
              beforeIdentity &&
              sameFileIdentity(beforeIdentity, candidate.identity)
            ) {
              // Racily clean: same stat, re-read to be sure, same bytes.
              verified++;
              reused++;
              if (!previous) fromSnapshot++;
            } else reread++;
          }
          nextCache.set(key, entry);
          loaded.push(entry);
        });
      }),
    );
    if (snapshotFile && (reread > 0 || verified > 0 || diskCount !== this.persistedDiskCount)) {
      try {
        await writeSnapshotFile(snapshotFile.path, snapshotContent(nextCache, this.settings, this.ordered), {
          prune: !snapshotFile.explicit,
        });
        this.persistedDiskCount = diskCount;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        if (snapshotFile.explicit)
          sourceDiagnostics.push({
            code: "registry-snapshot-unwritable",
            severity: "warning",
            message: `registry snapshot ${snapshotFile.path}: cannot write (${code})`,
            path: snapshotFile.path,
          });
      }
    }
    const previous = this.snapshot;
    const next = await buildSnapshot({
      previous,
      loaded,
      sourceOrder: this.ordered.map(({ source }) => source.id),
      sourceDiagnostics,
      readBody: (entry) => readCandidateBody(entry, this.settings),
      readBodySync: (entry) => readCandidateBodySync(entry, this.settings.maxBytes),
      eagerIndex: this.settings.eagerIndex,
      storedAnalyses: () => (this.storedAnalyses ??= snapshotFile ? readStoredAnalyses(snapshotFile.path) : new Map()),
      onIndexBuilt: () => this.persistSearchAnalyses(),
    });
    // The search index lives beside the snapshot: rewritten when this load analyzed skills (eager index, reload with
    // changes), in the background once this load is in place, so a reload does not wait for it.
    if (next.snapshot.index.built) this.storedAnalyses = new Map();
    this.cache = nextCache;
    this.snapshot = next.snapshot;
    if (hasUnsavedAnalyses(nextCache)) this.persistSearchAnalyses();
    return { ...next.changes, reread, reused, fromSnapshot, verified, version: next.snapshot.version };
  }

  /** Starts the watcher (once). */
  startWatching(settings: WatchSettings): void {
    this.watcher ??= new SourceWatcher(
      this.ordered.map(({ source }) => source),
      settings,
      () => this.reload(),
    );
    this.watcher.start();
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    await this.reloading?.catch(() => {});
    await this.analysesWrite;
  }

  /** Writes the current state as a snapshot file with its search index beside it (for `buildRegistrySnapshot`). */
  async writeSnapshot(path: string): Promise<number> {
    this.current().index.get();
    const bytes = await writeSnapshotFile(path, snapshotContent(this.cache, this.settings, this.ordered), {
      prune: false,
    });
    return bytes + (await this.writeSearchAnalyses(this.cache, path));
  }

  /** Writes the analyses of every indexed skill to the search-index file beside the snapshot. */
  private async writeSearchAnalyses(
    cache: ReadonlyMap<string, LoadedCandidate>,
    path = this.settings.snapshotFile?.path,
  ): Promise<number> {
    if (path === undefined) return 0;
    const analyses = new Map<string, IndexedDocument>();
    const entries = [...cache.values()].filter((entry) => entry.analyzed && entry.metadata);
    for (const entry of entries) analyses.set(analysisKey(entry.metadata!), entry.analyzed!);
    const bytes = await writeStoredAnalyses(path, analyses);
    for (const entry of entries) entry.searchSaved = true;
    return bytes;
  }

  /**
   * Once skills were analyzed (an index built lazily or at load, a reload re-indexing changes): writes the analyses
   * beside the snapshot in the background (best effort, off the searching or loading call) so the next cold start
   * restores them instead of tokenizing every body again. The stored ones are no longer needed.
   */
  private persistSearchAnalyses(): void {
    this.storedAnalyses = new Map();
    if (!this.settings.snapshotFile) return;
    this.analysesWrite = this.analysesWrite
      .then(() => new Promise((done) => setImmediate(done)))
      .then(async () => {
        if (hasUnsavedAnalyses(this.cache)) await this.writeSearchAnalyses(this.cache);
      })
      .catch(() => {});
  }

  private current(): RegistrySnapshot {
    if (!this.snapshot) throw new Error("registry used before its first load");
    return this.snapshot;
  }

  list(): SkillMetadata[] {
    return this.current().list;
  }

  get(name: string): SkillMetadata | undefined {
    return this.current().byName.get(name)?.metadata;
  }

  has(name: string): boolean {
    return this.current().byName.has(name);
  }

  private entry(name: string) {
    const snapshot = this.current();
    const entry = snapshot.byName.get(name);
    if (!entry)
      throw new SkillNotFoundError({
        skillName: name,
        suggestions: suggestNames(
          name,
          snapshot.list.map((skill) => skill.name),
        ),
      });
    return entry;
  }

  async readBody(name: string): Promise<string> {
    return readCandidateBody(this.entry(name), this.settings);
  }

  async listFiles(name: string): Promise<SkillFileEntry[]> {
    const entry = this.entry(name);
    if (entry.candidate.kind === "code") {
      return Object.entries(entry.candidate.files)
        .map(([path, content]) => ({ path, size: Buffer.byteLength(content) }))
        .sort((a, b) => (a.path < b.path ? -1 : 1));
    }
    if (entry.candidate.kind === "remote") {
      const files = await entry.candidate.listFiles();
      return files.map(({ path, size }) => ({ path, size })).sort((a, b) => (a.path < b.path ? -1 : 1));
    }
    return listSkillFiles(entry.candidate.dir);
  }

  async readFile(name: string, relativePath: string, options: ReadSkillFileOptions = {}): Promise<SkillFileContent> {
    const entry = this.entry(name);
    if (entry.candidate.kind === "code") {
      const rel = checkRelativePath(name, relativePath);
      const content = entry.candidate.files[rel];
      if (content === undefined)
        throw new SkillPathError({
          skillName: name,
          requestedPath: relativePath,
          reason: "not-found",
          message: `no such file in skill '${name}': ${relativePath}`,
        });
      const size = Buffer.byteLength(content);
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
      if (size > maxBytes)
        throw new SkillPathError({
          skillName: name,
          requestedPath: relativePath,
          reason: "too-large",
          message: `file is ${size} bytes, over the ${maxBytes}-byte limit (skill '${name}', path '${relativePath}')`,
        });
      return { path: rel, size, content };
    }
    if (entry.candidate.kind === "remote")
      return readRemoteFile(name, entry.candidate, relativePath, options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES);
    return readSkillResource(name, entry.candidate.dir, relativePath, options.maxBytes);
  }

  search(query: string, options?: SearchOptions): SearchResult[] {
    return this.current().index.get().search(query, options);
  }

  async searchAsync(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    const model = this.settings.embeddings;
    if (!model) return this.search(query, options);
    const limit = options.limit ?? 10;
    const snapshot = this.current();
    const pool = Math.max(limit, 50);
    const lexical = snapshot.index.get().search(query, { ...options, limit: pool });
    const cache = (this.embeddingCache ??= new EmbeddingCache(model));
    const winners = [...snapshot.byName.values()];
    try {
      // One embedding pass at a time; a pass embeds only skills whose content hash has no vector yet.
      const pass = this.embedding.then(() =>
        cache.sync(winners.map((entry) => ({ hash: entry.metadata.hash, text: embeddingText(entry.metadata) }))),
      );
      this.embedding = pass.catch(() => {});
      await pass;
      const vector = await cache.query(query);
      const semantic = winners
        .map((entry) => ({
          name: entry.metadata.name,
          path: entry.metadata.file,
          description: entry.metadata.description,
          cosine: cosineOf(cache.get(entry.metadata.hash), vector),
        }))
        .sort((a, b) => b.cosine - a.cosine || (a.name < b.name ? -1 : 1))
        .slice(0, pool);
      return fuseRankings(lexical, semantic, limit);
    } catch {
      // The embeddings service failing (down, malformed answer) degrades to the lexical ranking, never to an error.
      return lexical.slice(0, limit);
    }
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

function sameCandidate(previous: LoadedCandidate, candidate: LoadedCandidate["candidate"]): boolean {
  const before = previous.candidate;
  if (before.kind === "disk" && candidate.kind === "disk") {
    return (
      before.file === candidate.file &&
      before.dir === candidate.dir &&
      before.root === candidate.root &&
      sameFileIdentity(before.identity, candidate.identity)
    );
  }
  if (before.kind === "remote" && candidate.kind === "remote")
    return before.key === candidate.key && before.version === candidate.version;
  return (
    before.kind === "code" &&
    candidate.kind === "code" &&
    before.text === candidate.text &&
    before.files === candidate.files
  );
}

/** Level 3 from a store: the path is checked like a folder's, the size from the listing before anything is fetched. */
async function readRemoteFile(
  name: string,
  candidate: RemoteSkillCandidate,
  relativePath: string,
  maxBytes: number,
): Promise<SkillFileContent> {
  const rel = checkRelativePath(name, relativePath);
  const listed = (await candidate.listFiles()).find((file) => file.path === rel);
  if (!listed)
    throw new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "not-found",
      message: `no such file in skill '${name}': ${relativePath}`,
    });
  const tooLarge = (size: number) =>
    new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "too-large",
      message: `file is ${size} bytes, over the ${maxBytes}-byte limit (skill '${name}', path '${relativePath}')`,
    });
  if (listed.size > maxBytes) throw tooLarge(listed.size);
  const content = await candidate.readFile(rel);
  if (typeof content !== "string")
    throw new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "not-found",
      message: `no such file in skill '${name}': ${relativePath}`,
    });
  const size = Buffer.byteLength(content);
  if (size > maxBytes) throw tooLarge(size);
  return { path: rel, size, content };
}

/** The text a skill is embedded by: what the model sees of it at level 1. */
function embeddingText(metadata: { name: string; description: string }): string {
  return `${metadata.name}: ${metadata.description}`;
}

function cosineOf(document: Float32Array | undefined, query: Float32Array): number {
  return document && document.length === query.length ? cosine(document, query) : -1;
}

/** A loaded candidate rebuilt from a snapshot entry (origin from the live source, never from the file). */
function fromStored(stored: ReadSnapshotEntry, candidate: DiskSkillCandidate, source: SkillSource): LoadedCandidate {
  const origin = { sourceId: source.id, layer: source.layer, kind: source.kind };
  // Completed in place: a snapshot entry read from the file serves one candidate of one load.
  const metadata = stored.metadata && Object.assign(stored.metadata, { origin });
  return {
    candidate,
    sourceId: source.id,
    metadata,
    refused: stored.refused,
    body: undefined,
    hash: stored.hash,
    racy: false,
  };
}

/** Whether some skill was analyzed for search since the search-index file was last written. */
function hasUnsavedAnalyses(cache: ReadonlyMap<string, LoadedCandidate>): boolean {
  for (const entry of cache.values()) if (entry.analyzed && !entry.searchSaved) return true;
  return false;
}

/** What a snapshot file records: every SKILL.md loaded from disk, with its stat identity and load result. */
function snapshotContent(
  cache: ReadonlyMap<string, LoadedCandidate>,
  settings: RegistrySettings,
  sources: ReadonlyArray<{ source: SkillSource }>,
) {
  const scanState: Record<string, unknown> = {};
  for (const { source } of sources) {
    const state = source.exportScanState?.();
    if (state !== undefined) scanState[source.id] = state;
  }
  const entries: SnapshotEntry[] = [];
  for (const entry of cache.values()) {
    const { candidate } = entry;
    if (candidate.kind !== "disk") continue;
    let metadata: SnapshotEntry["metadata"];
    if (entry.metadata) {
      const { origin: _origin, ...rest } = entry.metadata;
      metadata = rest;
    }
    entries.push({
      sourceId: entry.sourceId,
      dir: candidate.dir,
      file: candidate.file,
      root: candidate.root,
      identity: candidate.identity,
      hash: entry.hash,
      metadata,
      refused: entry.refused,
      verify: entry.racy,
    });
  }
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.sourceId < b.sourceId ? -1 : 1));
  return {
    settings: { strict: settings.strict, maxBytes: settings.maxBytes },
    sources: settings.diskSourceIds,
    entries,
    scanState,
  };
}
