import { stateOfIndex } from "../search/search-index.js";
import type { SkillDiagnostic } from "../skill/skill-types.js";
import { readSnapshotFile, writeSnapshotFile, type ReadSnapshot } from "../snapshot/snapshot-file.js";
import { storedCandidateOf, type StoredCandidate } from "../snapshot/stored-candidate.js";
import type { DecodedSearchIndex } from "../snapshot/search-index-codec.js";
import { readStoredSearchIndex, writeStoredSearchIndex } from "../snapshot/snapshot-search-index.js";
import type { DiskSkillCandidate, SkillSource } from "../sources/skill-source.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { LoadSettings } from "./load-candidate.js";
import type { CandidatesBySource } from "./registry-loader.js";
import type { RegistryCatalog } from "./registry-catalog.js";
import { storedKeyOf } from "./restore-search-index.js";

/** Where a registry persists, and what its snapshot covers. */
export interface PersistenceSettings extends LoadSettings {
  /** The snapshot file (its search index lives beside it); undefined when snapshots are off. */
  snapshotFile: { path: string; explicit: boolean } | undefined;
  /** Ids of the sources that read from disk, sorted (what a snapshot covers). */
  diskSourceIds: string[];
}

/**
 * The registry's files: the snapshot (read once on a cold start, rewritten when a load changed something) and the
 * search-index file beside it (read when the index is first needed, written in the background after skills were
 * analyzed). Both are written through `writeCacheFileAtomic` and read only when trusted (see trusted-cache-file.ts).
 */
export class RegistryPersistence {
  private persistedDiskCount = -1;
  private indexWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: PersistenceSettings,
    private readonly sources: readonly SkillSource[],
  ) {}

  /**
   * Reads the snapshot file (a cold start) and seeds each source's scan state from it. Gives the usable snapshot, if
   * any, and the warnings about it (unreadable, stale, untrusted, a source's listings malformed).
   */
  async readSnapshot(): Promise<{ snapshot: ReadSnapshot | undefined; diagnostics: SkillDiagnostic[] }> {
    const { snapshotFile } = this.settings;
    if (!snapshotFile) return { snapshot: undefined, diagnostics: [] };
    const read = await readSnapshotFile(snapshotFile.path, {
      settings: { strict: this.settings.strict, maxBytes: this.settings.maxBytes },
      sources: this.settings.diskSourceIds,
    });
    const diagnostics = [...read.diagnostics];
    const persisted = read.snapshot;
    this.persistedDiskCount = persisted?.count ?? -1;
    if (persisted) {
      for (const source of this.sources) {
        const state = persisted.scanState[source.id];
        if (state === undefined || !source.importScanState || source.importScanState(state, persisted.writtenNs))
          continue;
        const message = `registry snapshot ${snapshotFile.path}: folder listings of ${source.id} are malformed; listing the folders again`;
        diagnostics.push({ code: "registry-snapshot-invalid", severity: "warning", message, path: snapshotFile.path });
      }
    }
    return { snapshot: persisted, diagnostics };
  }

  /**
   * Rewrites the snapshot when a load changed what it records (skills re-read or verified, or a different number of
   * them). A failure is silent at the default location and a `registry-snapshot-unwritable` warning for an explicit one.
   */
  async saveSnapshot(
    cache: CandidatesBySource,
    pass: { reread: number; verified: number; diskCount: number },
  ): Promise<SkillDiagnostic[]> {
    const { snapshotFile } = this.settings;
    if (!snapshotFile) return [];
    if (pass.reread === 0 && pass.verified === 0 && pass.diskCount === this.persistedDiskCount) return [];
    try {
      await writeSnapshotFile(snapshotFile.path, this.snapshotContent(cache), { prune: !snapshotFile.explicit });
      this.persistedDiskCount = pass.diskCount;
      return [];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      if (!snapshotFile.explicit) return [];
      return [
        {
          code: "registry-snapshot-unwritable",
          severity: "warning",
          message: `registry snapshot ${snapshotFile.path}: cannot write (${code})`,
          path: snapshotFile.path,
        },
      ];
    }
  }

  /** Writes the cache as a snapshot file at `path` with the catalog's search index beside it; returns the bytes written. */
  async writeSnapshotTo(path: string, cache: CandidatesBySource, catalog: RegistryCatalog): Promise<number> {
    const bytes = await writeSnapshotFile(path, this.snapshotContent(cache), { prune: false });
    return bytes + (await this.writeIndex(catalog, path));
  }

  /** The search index stored beside the snapshot, when there is a usable one (read each time: the index keeps it). */
  readStoredIndex(): DecodedSearchIndex | undefined {
    const { snapshotFile } = this.settings;
    return snapshotFile ? readStoredSearchIndex(snapshotFile.path) : undefined;
  }

  /**
   * Once the index was built from something else than the stored one (skills analyzed, stale documents dropped, a
   * reload's changes): writes it beside the snapshot in the background (best effort, off the searching or loading
   * call) so the next cold start reads it instead of tokenizing bodies. `catalog` is read when the write runs.
   */
  persistIndex(catalog: () => RegistryCatalog): void {
    if (!this.settings.snapshotFile) return;
    this.indexWrite = this.indexWrite
      .then(() => new Promise((done) => setImmediate(done)))
      .then(() => this.writeIndex(catalog()))
      .then(() => undefined)
      .catch(() => {});
  }

  /** Waits for a pending background write. */
  async flush(): Promise<void> {
    await this.indexWrite;
  }

  /** Writes the catalog's built index to the search-index file beside the snapshot (nothing when not built). */
  private async writeIndex(catalog: RegistryCatalog, path = this.settings.snapshotFile?.path): Promise<number> {
    const built = catalog.index.built;
    if (path === undefined || built === undefined) return 0;
    const state = stateOfIndex(built);
    return writeStoredSearchIndex(path, state, (id) =>
      storedKeyOf(catalog.byName.get(state.docs.nameOf(id))!.metadata),
    );
  }

  /** What a snapshot file records: every SKILL.md loaded from disk, with its stat identity and load result. */
  private snapshotContent(cache: CandidatesBySource) {
    const scanState: Record<string, unknown> = {};
    for (const source of this.sources) {
      const state = source.exportScanState?.();
      if (state !== undefined) scanState[source.id] = state;
    }
    const entries: StoredCandidate[] = [];
    for (const ofSource of cache.values())
      for (const entry of ofSource.values())
        // The entry itself, not a spread of it: a served entry's metadata is a getter.
        if (entry.candidate.kind === "disk")
          entries.push(storedCandidateOf(entry as LoadedCandidate & { candidate: DiskSkillCandidate }));
    // In folder order, as a walk finds them: a cold start then matches each at a cursor (see SnapshotEntries).
    entries.sort((a, b) =>
      a.dir < b.dir
        ? -1
        : a.dir > b.dir
          ? 1
          : a.file < b.file
            ? -1
            : a.file > b.file
              ? 1
              : a.sourceId < b.sourceId
                ? -1
                : 1,
    );
    return {
      settings: { strict: this.settings.strict, maxBytes: this.settings.maxBytes },
      sources: this.settings.diskSourceIds,
      entries,
      scanState,
    };
  }
}
