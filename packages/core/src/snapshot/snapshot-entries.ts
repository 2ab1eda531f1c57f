import type { SkillDiagnostic, SkillMetadata, SkillOrigin } from "../skill/skill-types.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
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
import type { StoredCandidate, StoredSkillMetadata } from "./stored-candidate.js";
import { readDiagnostics, type StoredDiagnostic } from "./stored-diagnostics.js";
import { copyJson } from "./copy-json.js";

/** What a source found on disk, as the snapshot's entries are matched against it. */
export interface FoundSkillFile {
  dir: string;
  file: string;
  root: string;
  identity: FileIdentity;
}

/** What a snapshot entry says a load of its SKILL.md gave (metadata without its origin). */
export interface StoredLoadResult {
  hash: string | undefined;
  metadata: StoredSkillMetadata | undefined;
  refused: SkillDiagnostic[];
}

/**
 * The entries of a snapshot file, checked, read lazily: nothing is made per entry until the registry asks for that
 * entry (`load`), and the lookups (`indexOf`, `servesUnchanged`) compare the walk's strings with the string table in
 * place. A cold start that finds the files in the order they were stored matches each one at a cursor, without a map.
 */
export class SnapshotEntries {
  readonly count: number;
  private readonly text: string;
  /** The descriptions, each table one string (slices of them are the descriptions). */
  private readonly narrowText: string;
  private readonly wideText: string;
  private readonly json: SnapshotJson;
  private readonly racy: Uint8Array;
  /** Per entry that has some, the index of its list in the JSON section's `diagnosticLists`. */
  private readonly diagnostics: Map<number, number>;
  private readonly refusals: Map<number, StoredDiagnostic[]>;
  private readonly cursors: number[];
  private readonly sourceIndex: Map<string, number>;
  private byFolder: Array<Map<string, number>> | undefined;
  private hex: string | undefined;

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
    const { units } = sections;
    this.text = Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString(
      units.BYTES_PER_ELEMENT === 1 ? "latin1" : "utf16le",
    );
    const { narrowText, wideText } = sections;
    this.narrowText = Buffer.from(narrowText.buffer, narrowText.byteOffset, narrowText.byteLength).toString("latin1");
    this.wideText = Buffer.from(wideText.buffer, wideText.byteOffset, wideText.byteLength).toString("utf16le");
    this.json = json;
    this.racy = racyEntries(sections, racyAfter);
    this.diagnostics = new Map(json.diagnostics);
    this.refusals = new Map(json.refused);
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
    let found = at < count && this.stringIs(STRING_KINDS.dir * count + at, dir) ? at : -1;
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
    if (!this.stringIs(STRING_KINDS.mtimeNs * count + i, mtimeNs)) return false;
    // A stored ctime of "" is the stored mtime, just found equal.
    const ctime = STRING_KINDS.ctimeNs * count + i;
    return this.stringLength(ctime) === 0 ? ctimeNs === mtimeNs : this.stringIs(ctime, ctimeNs);
  }

  /**
   * A cold start's candidates of one source, served in bulk: per candidate, its entry (`at`, -1 when none) and, when
   * that entry serves it unchanged (`servesUnchanged`), the loaded candidate made from it with the live source's
   * `origin` (`served`). One loop per step rather than calls per candidate: a cold process runs each loop optimized
   * after a few iterations, where a call per candidate would run in the interpreter for most of the load.
   */
  serve(
    sourceId: string,
    candidates: readonly SkillCandidate[],
    origin: SkillOrigin,
  ): { at: Int32Array; served: Array<LoadedCandidate | undefined> } {
    const at = new Int32Array(candidates.length);
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[k]!;
      at[k] = candidate.kind === "disk" ? this.indexOf(sourceId, candidate.dir, candidate.file) : -1;
    }
    const served: Array<LoadedCandidate | undefined> = new Array(candidates.length);
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[k]!;
      const i = at[k]!;
      if (i < 0 || candidate.kind !== "disk" || !this.servesUnchanged(i, candidate)) continue;
      const { metadata, refused, hash } = this.load(i, candidate.dir, candidate.file);
      // This load's own object: completed in place.
      if (metadata) (metadata as SkillMetadata).origin = origin;
      served[k] = {
        candidate,
        sourceId,
        metadata: metadata as SkillMetadata | undefined,
        refused,
        body: undefined,
        hash,
        racy: false,
      };
    }
    return { at, served };
  }

  /**
   * What entry `i` says its load gave, the metadata's folder and file being `dir` and `file`: its own objects, made now
   * (the metadata a copy of its stored shape, completed in place).
   */
  load(i: number, dir: string, file: string): StoredLoadResult {
    const hash = (this.sections.flags[i]! & FLAG_HASH) === 0 ? undefined : this.hashAt(i);
    const refusals = this.refusals.get(i);
    const refused = refusals ? readDiagnostics(refusals, file)! : [];
    const shape = this.json.metadata[i] as number;
    if (shape === -1) return { hash, metadata: undefined, refused };
    const diagnostics = this.diagnostics.get(i);
    const metadata = copyJson(this.json.shapes[shape]) as Partial<StoredSkillMetadata>;
    const { narrow, wide } = this.sections;
    metadata.name = this.string(STRING_KINDS.name * this.count + i);
    // One of the two is "" (a description is in one of the tables): the other is the slice itself.
    metadata.description = this.narrowText.slice(narrow[i], narrow[i + 1]) + this.wideText.slice(wide[i], wide[i + 1]);
    metadata.dir = dir;
    metadata.file = file;
    metadata.hash = hash!;
    metadata.diagnostics =
      diagnostics === undefined ? [] : readDiagnostics(this.json.diagnosticLists[diagnostics], file)!;
    return { hash, metadata: metadata as StoredSkillMetadata, refused };
  }

  /** Entry `i` whole (made now). */
  entry(i: number): StoredCandidate {
    const { count, json, sections } = this;
    const dir = this.string(STRING_KINDS.dir * count + i);
    const file = `${dir}/${json.fileNames[sections.fileName[i]!]!}`;
    const root = sections.root[i]!;
    const mtimeNs = this.string(STRING_KINDS.mtimeNs * count + i);
    const ctimeNs = this.string(STRING_KINDS.ctimeNs * count + i);
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
      ...this.load(i, dir, file),
      racy: this.racy[i] === 1,
    };
  }

  /** Every entry, in stored order (made now). */
  all(): StoredCandidate[] {
    return Array.from({ length: this.count }, (_, i) => this.entry(i));
  }

  private string(k: number): string {
    return this.text.slice(this.sections.offsets[k], this.sections.offsets[k + 1]);
  }

  private stringLength(k: number): number {
    return this.sections.offsets[k + 1]! - this.sections.offsets[k]!;
  }

  /** Whether string `k` of the table is `value` (compared in place). */
  private stringIs(k: number, value: string): boolean {
    return this.stringLength(k) === value.length && this.text.startsWith(value, this.sections.offsets[k]);
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
      const dir = this.string(STRING_KINDS.dir * this.count + i);
      if (!folders.has(dir)) folders.set(dir, i);
    }
    return (this.byFolder = maps);
  }

  private hashAt(i: number): string {
    const { hashes } = this.sections;
    this.hex ??= Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength).toString("hex");
    return this.hex.slice(64 * i, 64 * i + 64);
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
