import type { SkillOrigin } from "../skill/skill-types.js";
import type { SkillCandidate } from "../sources/skill-source.js";
import type { FileIdentity } from "../skill/skill-file-identity.js";
import { FLAG_HASH, FLAG_RACY, STRING_KINDS, type SnapshotSections } from "./snapshot-binary.js";
import {
  checkJsonSection,
  checkOffsets,
  firstBadColumn,
  firstBadMetadata,
  type SnapshotJson,
} from "./snapshot-entries-checks.js";
import type { StoredCandidate } from "./stored-candidate.js";
import { ServedCandidate } from "./served-candidate.js";
import { StoredMetadata } from "./stored-metadata.js";

/** What a source found on disk, as the snapshot's entries are matched against it. */
export interface FoundSkillFile {
  dir: string;
  file: string;
  root: string;
  identity: FileIdentity;
}

/**
 * The entries of a snapshot file, checked, read lazily: nothing is made per entry until the registry asks for that
 * entry (`load`), and the lookups (`indexOf`, `servesUnchanged`) compare the walk's strings with the string table in
 * place. A cold start that finds the files in the order they were stored matches each one at a cursor, without a map.
 */
export class SnapshotEntries {
  readonly count: number;
  /** What each entry's load gave (kept by the entries served from it). */
  private readonly stored: StoredMetadata;
  private readonly json: SnapshotJson;
  private readonly racy: Uint8Array;
  private readonly cursors: number[];
  private readonly sourceIndex: Map<string, number>;
  private byFolder: Array<Map<string, number>> | undefined;

  /** Checks the sections (see snapshot-entries-checks.ts): the entries, or what is wrong. Never throws. */
  static open(
    sections: SnapshotSections,
    sources: readonly string[],
    racyAfter: string | undefined,
  ): { ok: true; entries: SnapshotEntries } | { ok: false; problem: string } {
    if (!checkOffsets(sections.offsets, sections.units.length)) return { ok: false, problem: "bad string table" };
    if (
      !checkOffsets(sections.narrow, sections.narrowText.length) ||
      !checkOffsets(sections.wide, sections.wideText.length)
    )
      return { ok: false, problem: "bad descriptions" };
    const json = checkJsonSection(sections.json, sections.count);
    if (typeof json === "string") return { ok: false, problem: json };
    const bad =
      firstBadColumn(sections, {
        sources: sources.length,
        fileNames: json.fileNames.length,
        roots: json.roots.length,
      }) ?? firstBadMetadata(sections, json);
    if (bad) return { ok: false, problem: `entry ${bad.at}: ${bad.problem}` };
    return { ok: true, entries: new SnapshotEntries(sections, json, sources, racyAfter) };
  }

  private constructor(
    private readonly sections: SnapshotSections,
    json: SnapshotJson,
    private readonly sources: readonly string[],
    racyAfter: string | undefined,
  ) {
    this.count = sections.count;
    this.stored = new StoredMetadata(sections, json);
    this.json = json;
    this.racy = racyEntries(sections, racyAfter);
    this.cursors = sources.map(() => 0);
    this.sourceIndex = new Map(sources.map((id, index) => [id, index]));
  }

  /** The scan state each source stored (checked by the source itself). */
  scanState(): Record<string, unknown> {
    return this.json.scanState ?? {};
  }

  /** The entry of source `sourceId` for the SKILL.md `file` in folder `dir`, or -1. */
  indexOf(sourceId: string, dir: string, file: string): number {
    const source = this.sourceIndex.get(sourceId);
    if (source === undefined) return -1;
    // The walk finds folders in the order they were stored: the entry at this source's cursor is usually the one.
    const { count } = this;
    let at = this.cursors[source]!;
    while (at < count && this.sections.source[at] !== source) at++;
    let found = at < count && this.stored.stringIs(STRING_KINDS.dir * count + at, dir) ? at : -1;
    if (found < 0) found = this.folderMaps()[source]!.get(dir) ?? -1;
    if (found < 0 || !this.isFileOf(found, dir, file)) return -1;
    this.cursors[source] = found + 1;
    return found;
  }

  /**
   * Whether entry `i` (of the same folder, see `indexOf`) can be served as it is for the file the walk found: not
   * racily clean, the same root, and the same inode, size, mtime and ctime.
   */
  servesUnchanged(i: number, found: FoundSkillFile): boolean {
    const { count, sections } = this;
    if (this.racy[i] === 1 || sections.size[i] !== found.identity.size || sections.ino[i] !== found.identity.ino)
      return false;
    const root = sections.root[i]!;
    if (found.root !== (root === 0 ? found.dir : this.json.roots[root - 1])) return false;
    const { mtimeNs, ctimeNs } = found.identity;
    if (!this.stored.stringIs(STRING_KINDS.mtimeNs * count + i, mtimeNs)) return false;
    // A stored ctime of "" is the stored mtime, just found equal.
    const ctime = STRING_KINDS.ctimeNs * count + i;
    return this.stored.stringLength(ctime) === 0 ? ctimeNs === mtimeNs : this.stored.stringIs(ctime, ctimeNs);
  }

  /**
   * A cold start's candidates of one source, served in bulk: per candidate, its entry (`at`, -1 when none) and, when
   * that entry serves it unchanged (`servesUnchanged`), the loaded candidate served from it with the live source's
   * `origin` (`served`; its metadata is made when first read). One loop per step rather than calls per candidate: a
   * cold process runs each loop optimized after a few iterations, where a call per candidate would run in the
   * interpreter for most of the load.
   */
  serve(
    sourceId: string,
    candidates: readonly SkillCandidate[],
    origin: SkillOrigin,
  ): { at: Int32Array; served: Array<ServedCandidate | undefined> } {
    const at = new Int32Array(candidates.length);
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[k]!;
      at[k] = candidate.kind === "disk" ? this.indexOf(sourceId, candidate.dir, candidate.file) : -1;
    }
    const served: Array<ServedCandidate | undefined> = new Array(candidates.length);
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[k]!;
      const i = at[k]!;
      if (i < 0 || candidate.kind !== "disk" || !this.servesUnchanged(i, candidate)) continue;
      served[k] = new ServedCandidate(candidate, this.stored, i, origin);
    }
    return { at, served };
  }

  /** Entry `i` whole (made now). */
  entry(i: number): StoredCandidate {
    const { count, json, sections } = this;
    const dir = this.stored.string(STRING_KINDS.dir * count + i);
    const file = `${dir}/${json.fileNames[sections.fileName[i]!]!}`;
    const root = sections.root[i]!;
    const mtimeNs = this.stored.string(STRING_KINDS.mtimeNs * count + i);
    const ctimeNs = this.stored.string(STRING_KINDS.ctimeNs * count + i);
    const identity: FileIdentity = {
      mtimeMs: mtimeNs.length > 6 ? Number(mtimeNs.slice(0, -6)) : 0,
      size: sections.size[i]!,
      ino: sections.ino[i]!,
      mtimeNs,
      ctimeNs: ctimeNs === "" ? mtimeNs : ctimeNs,
    };
    return {
      sourceId: this.sources[sections.source[i]!]!,
      dir,
      file,
      root: root === 0 ? dir : json.roots[root - 1]!,
      identity,
      ...this.stored.load(i, dir, file),
      racy: this.racy[i] === 1,
    };
  }

  /** Every entry, in stored order (made now). */
  all(): StoredCandidate[] {
    return Array.from({ length: this.count }, (_, i) => this.entry(i));
  }

  /** Whether `file` is entry `i`'s file name in folder `dir`, without putting the path together. */
  private isFileOf(i: number, dir: string, file: string): boolean {
    const name = this.json.fileNames[this.sections.fileName[i]!]!;
    return (
      file.length === dir.length + 1 + name.length &&
      file.charCodeAt(dir.length) === 47 &&
      file.startsWith(dir) &&
      file.endsWith(name)
    );
  }

  /** Per source, its entries by folder: made on the first folder not found at the cursor. */
  private folderMaps(): Array<Map<string, number>> {
    if (this.byFolder) return this.byFolder;
    const maps = this.sources.map(() => new Map<string, number>());
    for (let i = 0; i < this.count; i++) {
      const folders = maps[this.sections.source[i]!]!;
      const dir = this.stored.string(STRING_KINDS.dir * this.count + i);
      if (!folders.has(dir)) folders.set(dir, i);
    }
    return (this.byFolder = maps);
  }
}

/**
 * Per entry, 1 when it is racily clean: flagged so when written, or changed (mtime or ctime) after `racyAfter`
 * (decimal nanoseconds, from `racyThreshold`; compared digit by digit on the string table, no BigInt per entry).
 */
function racyEntries(sections: SnapshotSections, racyAfter: string | undefined): Uint8Array {
  const { count, flags, offsets, units } = sections;
  const racy = new Uint8Array(count);
  for (let i = 0; i < count; i++) racy[i] = flags[i]! & FLAG_RACY;
  if (racyAfter === undefined) return racy;
  const mtimes = STRING_KINDS.mtimeNs * count;
  const ctimes = STRING_KINDS.ctimeNs * count;
  for (let i = 0; i < count; i++) {
    if (racy[i] === 1) continue;
    const after =
      decimalAfter(units, offsets[mtimes + i]!, offsets[mtimes + i + 1]!, racyAfter) ||
      decimalAfter(units, offsets[ctimes + i]!, offsets[ctimes + i + 1]!, racyAfter);
    if (after) racy[i] = 1;
  }
  return racy;
}

/** `a > b` for the decimal `a` at `[start, end)` of `units` ("" is never after) and `b` ("-…": always after). */
function decimalAfter(units: Uint8Array | Uint16Array, start: number, end: number, b: string): boolean {
  if (start === end) return false;
  if (b.charCodeAt(0) === 45) return true;
  if (end - start !== b.length) return end - start > b.length;
  for (let k = 0; k < b.length; k++) {
    const difference = units[start + k]! - b.charCodeAt(k);
    if (difference !== 0) return difference > 0;
  }
  return false;
}
