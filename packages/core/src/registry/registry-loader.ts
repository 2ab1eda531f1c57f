import { SkillSourceError } from "../errors/skill-source-error.js";
import { mapLimit } from "../internal/concurrency-limit.js";
import { sameFileIdentity } from "../skill/skill-file-identity.js";
import type { SkillDiagnostic, SkillOrigin } from "../skill/skill-types.js";
import type { ReadSnapshot } from "../snapshot/snapshot-file.js";
import type { StoredCandidate } from "../snapshot/stored-candidate.js";
import type { SkillCandidate, SkillSource } from "../sources/skill-source.js";
import { loadCandidate, type LoadSettings } from "./load-candidate.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";

/**
 * Loaded candidates by source id, then by `candidateKey` (a SKILL.md's path for a disk candidate): no key string is
 * put together per skill, the path a source found is the key.
 */
export type CandidatesBySource = Map<string, Map<string, LoadedCandidate>>;

/** What one pass of the loader found: every candidate loaded, keyed for the next pass, and how each was obtained. */
export interface LoaderPass {
  /** The cache the next pass reconciles against once this pass is committed. */
  cache: CandidatesBySource;
  /** Every candidate of every source (in completion order; the catalog sorts them). */
  loaded: LoadedCandidate[];
  /** The sources' own diagnostics, in source order. */
  diagnostics: SkillDiagnostic[];
  /** Re-read and parsed (changed, new, or not provably unchanged). */
  reread: number;
  /** Served without parsing: from memory, from the snapshot file, or verified by hash. */
  reused: number;
  /** Of `reused`, served from the snapshot file. */
  fromSnapshot: number;
  /** Racily clean: same stat, read again to be sure, same bytes. */
  verified: number;
  /** Candidates read from disk (what a snapshot file covers). */
  diskCount: number;
}

/** A candidate of one source, with what the previous load holds for it in memory. */
interface CandidateToReuse {
  candidate: SkillCandidate;
  previous: LoadedCandidate | undefined;
}

/** A candidate `reuse` did not take, by its cache key, with what the previous load held for it. */
interface CandidateToLoad {
  candidate: SkillCandidate;
  source: SkillSource;
  previous: LoadedCandidate | undefined;
  /** What the snapshot file holds for it (only read when nothing is in memory). */
  stored: StoredCandidate | undefined;
}

/**
 * Reconciles what the sources find now with what was loaded before — the previous pass in memory, else the snapshot
 * file — and loads only what cannot be proven unchanged (the racy-clean rule: a stat equal to one taken within the
 * racy window of the file's change is not proof; the bytes are hashed and compared). A pass changes nothing until it is
 * committed, so a failed reload leaves the loader as it was.
 */
export class RegistryLoader {
  private cache: CandidatesBySource = new Map();

  constructor(
    private readonly sources: readonly SkillSource[],
    private readonly settings: LoadSettings,
  ) {}

  /** The candidates of the last committed pass. */
  current(): CandidatesBySource {
    return this.cache;
  }

  /** Scans every source and loads what changed; `persisted` is the snapshot file read on a cold start. */
  async load(persisted: ReadSnapshot | undefined, { firstLoad = false } = {}): Promise<LoaderPass> {
    const scans = await Promise.all(this.sources.map((source) => scanSource(source, firstLoad)));
    const pass: LoaderPass = {
      cache: new Map(),
      loaded: [],
      diagnostics: [],
      reread: 0,
      reused: 0,
      fromSnapshot: 0,
      verified: 0,
      diskCount: 0,
    };
    await Promise.all(
      scans.map(async ({ source, scan }) => {
        pass.diagnostics.push(...scan.diagnostics);
        // Candidates provably unchanged are taken in one synchronous loop (most of a cold start from a snapshot or a
        // reload); only the others are read, a bounded number at a time.
        const toLoad: Array<{ key: string; item: CandidateToLoad }> = [];
        const origin: SkillOrigin = Object.freeze({ sourceId: source.id, layer: source.layer, kind: source.kind });
        const before = this.cache.get(source.id);
        let next = pass.cache.get(source.id);
        if (!next) pass.cache.set(source.id, (next = new Map()));
        const kept = next;
        // A cold start: nothing in memory, the snapshot's entries served in bulk (no entry decoded unless served).
        const fromFile =
          before === undefined ? persisted?.entries.serve(source.id, scan.candidates, origin) : undefined;
        for (let k = 0; k < scan.candidates.length; k++) {
          const candidate = scan.candidates[k]!;
          const key = candidateKey(candidate);
          if (candidate.kind === "disk") pass.diskCount++;
          const previous = before?.get(key);
          const reused = fromFile ? fromFile.served[k] : this.reuse({ candidate, previous }, pass);
          if (reused) {
            if (fromFile) {
              pass.reused++;
              pass.fromSnapshot++;
            }
            kept.set(key, reused);
            pass.loaded.push(reused);
            continue;
          }
          const at = fromFile ? fromFile.at[k]! : -1;
          const stored = at >= 0 ? persisted!.entries.entry(at) : undefined;
          toLoad.push({ key, item: { candidate, source, previous, stored } });
        }
        await mapLimit(toLoad, 16, async ({ key, item }) => {
          const entry = await this.reconcile(item, pass);
          kept.set(key, entry);
          pass.loaded.push(entry);
        });
      }),
    );
    return pass;
  }

  /** Makes a pass the one the next pass reconciles against. */
  commit(pass: LoaderPass): void {
    this.cache = pass.cache;
  }

  /** A candidate reused from memory when provably unchanged (counted), else undefined. */
  private reuse({ candidate, previous }: CandidateToReuse, pass: LoaderPass): LoadedCandidate | undefined {
    if (!previous || previous.racy || !sameCandidate(previous, candidate)) return undefined;
    pass.reused++;
    return previous;
  }

  /** A candidate `reuse` did not take: loaded (and counted; racily clean ones as verified). */
  private async reconcile(
    { candidate, source, previous, stored: storedEntry }: CandidateToLoad,
    pass: LoaderPass,
  ): Promise<LoadedCandidate> {
    const stored = previous ? undefined : storedEntry;
    const before = previous ?? stored;
    const entry = await loadCandidate(candidate, source, this.settings, before);
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
      pass.verified++;
      pass.reused++;
      if (!previous) pass.fromSnapshot++;
    } else pass.reread++;
    return entry;
  }
}

/**
 * The key of a candidate within its source in the loader's cache: a disk candidate's SKILL.md path (absolute, so never
 * equal to the `kind:key` of another kind), as in a read snapshot's entries.
 */
export function candidateKey(candidate: SkillCandidate): string {
  return candidate.kind === "disk" ? candidate.file : `${candidate.kind}:${candidate.key}`;
}

/**
 * A source's scan; a source that throws becomes one diagnostic and no candidates, except a named folder that is
 * missing or unreadable on the first load (createSkillRegistry rejects with its SkillSourceError; a reload reports it).
 */
async function scanSource(
  source: SkillSource,
  firstLoad: boolean,
): Promise<{ source: SkillSource; scan: { candidates: SkillCandidate[]; diagnostics: SkillDiagnostic[] } }> {
  try {
    return { source, scan: await source.scan() };
  } catch (error) {
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
