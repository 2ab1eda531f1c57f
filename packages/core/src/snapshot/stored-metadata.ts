import type { SkillDiagnostic, SkillMetadata, SkillOrigin } from "../skill/skill-types.js";
import { FLAG_HASH, STRING_KINDS, type SnapshotSections } from "./snapshot-binary.js";
import type { SnapshotJson } from "./snapshot-entries-checks.js";
import type { StoredSkillMetadata } from "./stored-candidate.js";
import { readDiagnostics, type StoredDiagnostic } from "./stored-diagnostics.js";

/** What a snapshot entry says a load of its SKILL.md gave (metadata without its origin). */
export interface StoredLoadResult {
  hash: string | undefined;
  metadata: StoredSkillMetadata | undefined;
  refused: SkillDiagnostic[];
}

/**
 * What a checked snapshot says each entry's load gave, kept after the load for the entries served from it (their
 * metadata is made when first read): the string table and descriptions as strings, copies of the few columns it
 * needs (not views: the file's bytes are not kept), the distinct metadata and diagnostics of the JSON section.
 */
export class StoredMetadata {
  private readonly count: number;
  private readonly text: string;
  /** The descriptions, each table one string (slices of them are the descriptions). */
  private readonly narrowText: string;
  private readonly wideText: string;
  private readonly offsets: Uint32Array;
  private readonly narrow: Uint32Array;
  private readonly wide: Uint32Array;
  private readonly flags: Uint8Array;
  private readonly hashes: Uint8Array;
  private readonly shapeOf: unknown[];
  private readonly shapes: unknown[];
  private readonly diagnosticLists: StoredDiagnostic[][];
  /** Per entry that has some, the index of its list in `diagnosticLists`. */
  private readonly diagnostics: Map<number, number>;
  private readonly refusals: Map<number, StoredDiagnostic[]>;
  private hex: string | undefined;
  /** Per shape, the JSON text of a whole metadata of it (see `metadataOf`), made when first needed. */
  private readonly templates = new Map<number, string>();

  /** Over checked sections and their checked JSON section. */
  constructor(sections: SnapshotSections, json: SnapshotJson) {
    this.count = sections.count;
    const { units, narrowText, wideText } = sections;
    this.text = Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString(
      units.BYTES_PER_ELEMENT === 1 ? "latin1" : "utf16le",
    );
    this.narrowText = Buffer.from(narrowText.buffer, narrowText.byteOffset, narrowText.byteLength).toString("latin1");
    this.wideText = Buffer.from(wideText.buffer, wideText.byteOffset, wideText.byteLength).toString("utf16le");
    this.offsets = sections.offsets.slice();
    this.narrow = sections.narrow.slice();
    this.wide = sections.wide.slice();
    this.flags = sections.flags.slice();
    this.hashes = sections.hashes.slice();
    this.shapeOf = json.metadata;
    this.shapes = json.shapes;
    this.diagnosticLists = json.diagnosticLists;
    this.diagnostics = new Map(json.diagnostics);
    this.refusals = new Map(json.refused);
  }

  /** String `k` of the table (`kind * count + entry`). */
  string(k: number): string {
    return this.text.slice(this.offsets[k], this.offsets[k + 1]);
  }

  /** Code units of string `k` of the table. */
  stringLength(k: number): number {
    return this.offsets[k + 1]! - this.offsets[k]!;
  }

  /** Whether string `k` of the table is `value` (compared in place). */
  stringIs(k: number, value: string): boolean {
    return this.stringLength(k) === value.length && this.text.startsWith(value, this.offsets[k]);
  }

  /** Entry `i`'s skill name; undefined for a refused skill. */
  name(i: number): string | undefined {
    return this.shapeOf[i] === -1 ? undefined : this.string(STRING_KINDS.name * this.count + i);
  }

  /** Entry `i`'s description ("" for a refused skill). */
  description(i: number): string {
    // One of the two is "" (a description is in one of the tables): the other is the slice itself.
    const { narrow, wide } = this;
    return this.narrowText.slice(narrow[i], narrow[i + 1]) + this.wideText.slice(wide[i], wide[i + 1]);
  }

  /** Entry `i`'s content hash (sha256 hex), undefined when its file could not be read. */
  hash(i: number): string | undefined {
    if ((this.flags[i]! & FLAG_HASH) === 0) return undefined;
    this.hex ??= Buffer.from(this.hashes.buffer, this.hashes.byteOffset, this.hashes.byteLength).toString("hex");
    return this.hex.slice(64 * i, 64 * i + 64);
  }

  /**
   * What entry `i` says its load gave, the metadata's folder and file being `dir` and `file` and, when given, its
   * origin `origin`: its own objects, made now (the metadata a copy of its stored shape, completed in place).
   */
  load(i: number, dir: string, file: string, origin?: SkillOrigin): StoredLoadResult {
    const hash = this.hash(i);
    const refusals = this.refusals.get(i);
    const refused = refusals ? readDiagnostics(refusals, file)! : [];
    const shape = this.shapeOf[i] as number;
    if (shape === -1) return { hash, metadata: undefined, refused };
    const diagnostics = this.diagnostics.get(i);
    const metadata = this.metadataOf(shape, origin !== undefined);
    metadata.name = this.name(i);
    metadata.description = this.description(i);
    metadata.dir = dir;
    metadata.file = file;
    metadata.hash = hash!;
    metadata.diagnostics = diagnostics === undefined ? [] : readDiagnostics(this.diagnosticLists[diagnostics], file)!;
    if (origin) metadata.origin = origin;
    return { hash, metadata: metadata as StoredSkillMetadata, refused };
  }

  /**
   * A new metadata object of shape `shape`, every key already in place (those the entry says set to placeholders, the
   * origin last when `withOrigin`): parsed from the shape's JSON text, so each skill gets its own objects, made at
   * their final size in one native call, in the key order of a metadata loaded from its file.
   */
  private metadataOf(shape: number, withOrigin: boolean): Partial<SkillMetadata> {
    const key = withOrigin ? -1 - shape : shape;
    let template = this.templates.get(key);
    if (template === undefined) {
      const whole = { ...(this.shapes[shape] as object), dir: "", file: "", hash: "", diagnostics: 0 };
      template = JSON.stringify(withOrigin ? { ...whole, origin: 0 } : whole);
      this.templates.set(key, template);
    }
    return JSON.parse(template) as Partial<SkillMetadata>;
  }
}
