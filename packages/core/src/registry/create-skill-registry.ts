import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { SkillPathError } from "../errors/skill-path-error.js";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";
import type { SkillDiagnostic, SkillLayer, SkillMetadata } from "../skill/skill-types.js";
import type { SkillSource } from "../sources/skill-source.js";
import { buildSnapshot, type LoadedCandidate, type RegistrySnapshot } from "./registry-snapshot.js";
import { loadCandidate, readCandidateBody, readCandidateBodySync } from "./load-candidate.js";
import { checkRelativePath, DEFAULT_MAX_RESOURCE_BYTES, listSkillFiles, readSkillResource } from "./skill-resources.js";
import { createCatalogView } from "./catalog-view.js";
import { suggestNames } from "./suggest-names.js";
import type { ReadSkillFileOptions, ReloadReport, ShadowedSkill, SkillCatalog, SkillFileContent, SkillFileEntry, SkillRegistry, SkillViewOptions } from "./registry-types.js";

/** Options of `createSkillRegistry`. */
export interface SkillRegistryOptions {
  /** Where skills come from; precedence by layer (user < project < explicit), then by order in this list. */
  sources: SkillSource[];
  /** Refuse skills that break a spec rule instead of loading them with diagnostics. @default false */
  strict?: boolean;
  /** Largest SKILL.md accepted, in bytes. @default 1048576 */
  maxSkillFileBytes?: number;
  /**
   * When to build the search index: `lazy` on the first `search()` (loading stays cheap for agents that never search),
   * `eager` while loading. @default "lazy"
   */
  searchIndex?: "lazy" | "eager";
}

const LAYER_RANK: Record<SkillLayer, number> = { user: 0, project: 1, explicit: 2 };

/**
 * Loads skills from its sources into a layered, reloadable registry.
 * @example
 * const registry = await createSkillRegistry({ sources: [skillsFromDirectory("./skills")] });
 * registry.list().map((skill) => skill.name);
 */
export async function createSkillRegistry(options: SkillRegistryOptions): Promise<SkillRegistry> {
  if (!Array.isArray(options.sources)) throw new InvalidOptionsError({ option: "sources", value: options.sources, message: "must be an array of skill sources" });
  const maxBytes = options.maxSkillFileBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) throw new InvalidOptionsError({ option: "maxSkillFileBytes", value: maxBytes, message: "must be a positive integer" });
  const ids = new Set<string>();
  for (const source of options.sources) {
    if (ids.has(source.id)) throw new InvalidOptionsError({ option: "sources", value: source.id, message: `source '${source.id}' is listed twice` });
    ids.add(source.id);
  }
  const searchIndex = options.searchIndex ?? "lazy";
  if (searchIndex !== "lazy" && searchIndex !== "eager") throw new InvalidOptionsError({ option: "searchIndex", value: searchIndex, message: 'must be "lazy" or "eager"' });
  const registry = new LayeredSkillRegistry(options.sources, { strict: options.strict ?? false, maxBytes, eagerIndex: searchIndex === "eager" });
  await registry.reload();
  return registry;
}

class LayeredSkillRegistry implements SkillRegistry {
  private snapshot: RegistrySnapshot | undefined;
  private cache = new Map<string, LoadedCandidate>();
  private reloading: Promise<ReloadReport> | undefined;
  private readonly ordered: Array<{ source: SkillSource; rank: number }>;

  constructor(
    sources: SkillSource[],
    private readonly settings: { strict: boolean; maxBytes: number; eagerIndex: boolean },
  ) {
    // Highest precedence first: layer rank descending, then list order.
    this.ordered = sources.map((source, index) => ({ source, rank: LAYER_RANK[source.layer] * 10_000 - index })).sort((a, b) => b.rank - a.rank);
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
    const scans = await Promise.all(
      this.ordered.map(async ({ source }) => {
        try {
          return { source, scan: await source.scan() };
        } catch (error) {
          const diagnostic: SkillDiagnostic = { code: "source-failed", severity: "error", message: `source ${source.id}: ${(error as Error).message}`, path: source.id };
          return { source, scan: { candidates: [], diagnostics: [diagnostic] } };
        }
      }),
    );
    const nextCache = new Map<string, LoadedCandidate>();
    let reread = 0;
    let reused = 0;
    const loaded: LoadedCandidate[] = [];
    const sourceDiagnostics: SkillDiagnostic[] = [];
    await Promise.all(
      scans.map(async ({ source, scan }) => {
        sourceDiagnostics.push(...scan.diagnostics);
        await mapLimit(scan.candidates, 16, async (candidate) => {
          const key = candidate.kind === "disk" ? `${source.id}\0${candidate.file}` : `${source.id}\0code:${candidate.key}`;
          const previous = this.cache.get(key);
          let entry: LoadedCandidate;
          if (previous && sameCandidate(previous, candidate)) {
            entry = previous;
            reused++;
          } else {
            entry = await loadCandidate(candidate, source, this.settings);
            reread++;
          }
          nextCache.set(key, entry);
          loaded.push(entry);
        });
      }),
    );
    const previous = this.snapshot;
    const next = await buildSnapshot({
      previous,
      loaded,
      sourceOrder: this.ordered.map(({ source }) => source.id),
      sourceDiagnostics,
      readBody: (entry) => readCandidateBody(entry, this.settings),
      readBodySync: (entry) => readCandidateBodySync(entry, this.settings.maxBytes),
      eagerIndex: this.settings.eagerIndex,
    });
    this.cache = nextCache;
    this.snapshot = next.snapshot;
    return { ...next.changes, reread, reused, version: next.snapshot.version };
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
    if (!entry) throw new SkillNotFoundError({ skillName: name, suggestions: suggestNames(name, snapshot.list.map((skill) => skill.name)) });
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
    return listSkillFiles(entry.candidate.dir);
  }

  async readFile(name: string, relativePath: string, options: ReadSkillFileOptions = {}): Promise<SkillFileContent> {
    const entry = this.entry(name);
    if (entry.candidate.kind === "code") {
      const rel = checkRelativePath(name, relativePath);
      const content = entry.candidate.files[rel];
      if (content === undefined) throw new SkillPathError({ skillName: name, requestedPath: relativePath, reason: "not-found", message: `no such file in skill '${name}': ${relativePath}` });
      const size = Buffer.byteLength(content);
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
      if (size > maxBytes) throw new SkillPathError({ skillName: name, requestedPath: relativePath, reason: "too-large", message: `file is ${size} bytes, over the ${maxBytes}-byte limit (skill '${name}', path '${relativePath}')` });
      return { path: rel, size, content };
    }
    return readSkillResource(name, entry.candidate.dir, relativePath, options.maxBytes);
  }

  search(query: string, options?: SearchOptions): SearchResult[] {
    return this.current().index.get().search(query, options);
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
    return before.file === candidate.file && before.identity.mtimeMs === candidate.identity.mtimeMs && before.identity.size === candidate.identity.size && before.identity.ino === candidate.identity.ino;
  }
  return before.kind === "code" && candidate.kind === "code" && before.text === candidate.text && before.files === candidate.files;
}

async function mapLimit<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(workers);
}
