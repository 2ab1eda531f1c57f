import type { StoredSnapshotEntries } from "./snapshot-entries-codec.js";

// The bytes of a registry snapshot file (after the MAC line, see cache-key.ts), read in one go and used in place:
//
//   "skgsnap\n"                 8 bytes, never "{": a snapshot of the older JSON format is told apart
//   u32 header length, header   JSON: format, versions, settings, sources, and the sizes below
//   (padding to 8)
//   f64 size[n], f64 ino[n]     the SKILL.md's stat identity
//   u32 source[n], fileName[n], root[n]
//   u32 offsets[4n + 1]         ends of the strings of the string table, in code units
//   u32 narrow[n + 1]           description i is code units [narrow[i], narrow[i + 1]) of the Latin-1 descriptions
//   u32 wide[n + 1]             ... or [wide[i], wide[i + 1]) of the UTF-16 ones (the other range is empty)
//   wide descriptions           UTF-16LE: the few descriptions with a character beyond Latin-1
//   string table                Latin-1 (1 byte a unit) when every character fits, else UTF-16LE: the folder paths
//                               of all entries, then their mtimes, ctimes ("" when equal to the mtime) and names
//                               (decimal nanoseconds; "" for a refused skill's name)
//   u8 flags[n]                 1: racily clean when written, 2: has a content hash
//   hashes[32 n]                sha256 of each SKILL.md's bytes
//   narrow descriptions         Latin-1: every other description (one rare non-Latin-1 character would make a
//                               table of all of them UTF-16: twice the bytes)
//   JSON section                ASCII: file names, roots, each distinct rest of a metadata (most skills share one of
//                               a few) with its name and description "" (they are in the table and the descriptions:
//                               keeping their place keeps the metadata's key order) and per entry the index of its
//                               own (-1 for a refused skill), each distinct list of diagnostics and the index of the
//                               entries' that have some, the refusals, each source's scan state
//
// All little-endian; every section's size follows from the header, and the file must end exactly where the last one
// does. A reader makes typed-array views on the bytes and one string of the whole table, whose slices become paths
// and names: no per-entry parsing, and a few large allocations instead of one per value.

const MAGIC = "skgsnap\n";
/** Strings per entry in the string table, each kind a block of `count` strings. */
export const STRING_KINDS = { dir: 0, mtimeNs: 1, ctimeNs: 2, name: 3 } as const;
const KINDS = 4;
/** Flags of an entry. */
export const FLAG_RACY = 1;
export const FLAG_HASH = 2;
/** Largest count of entries or string units read (far above 10 000 skills, far below 2^31). */
const MAX_ITEMS = 2 ** 28;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** What the header of a snapshot says besides its sizes (checked by snapshot-format.ts). */
export interface SnapshotHeaderFields {
  format: string;
  formatVersion: string;
  coreVersion: string;
  settings: { strict: boolean; maxBytes: number };
  sources: string[];
}

/** The sizes the header gives. */
interface Sizes {
  count: number;
  latin1: boolean;
  units: number;
  /** Code units of the Latin-1 descriptions and of the UTF-16 ones. */
  narrow: number;
  wide: number;
  json: number;
}

/** The sections of a snapshot file, as views on its bytes (or copies where a view would be misaligned). */
export interface SnapshotSections {
  count: number;
  size: Float64Array;
  ino: Float64Array;
  source: Uint32Array;
  fileName: Uint32Array;
  root: Uint32Array;
  /** String `k` (`kind * count + entry`) is code units `[offsets[k], offsets[k + 1])` of the table. */
  offsets: Uint32Array;
  /** The string table's code units. */
  units: Uint8Array | Uint16Array;
  /** Description `i` is `[narrow[i], narrow[i + 1])` of `narrowText` or `[wide[i], wide[i + 1])` of `wideText`. */
  narrow: Uint32Array;
  wide: Uint32Array;
  narrowText: Uint8Array;
  wideText: Uint16Array;
  flags: Uint8Array;
  hashes: Uint8Array;
  /** The JSON section, parsed (unchecked). */
  json: unknown;
}

/** Byte offset of every section after the header. */
function layout(start: number, { count, latin1, units, narrow, wide, json }: Sizes) {
  const size = start;
  const ino = size + 8 * count;
  const source = ino + 8 * count;
  const fileName = source + 4 * count;
  const root = fileName + 4 * count;
  const offsets = root + 4 * count;
  const narrowAt = offsets + 4 * (KINDS * count + 1);
  const wideAt = narrowAt + 4 * (count + 1);
  const wideText = wideAt + 4 * (count + 1);
  const text = wideText + 2 * wide;
  const flags = text + (latin1 ? 1 : 2) * units;
  const hashes = flags + count;
  const narrowText = hashes + 32 * count;
  const jsonAt = narrowText + narrow;
  const end = jsonAt + json;
  return {
    size,
    ino,
    source,
    fileName,
    root,
    offsets,
    narrow: narrowAt,
    wide: wideAt,
    wideText,
    text,
    flags,
    hashes,
    narrowText,
    json: jsonAt,
    end,
  };
}

/** A JSON text with every non-ASCII character escaped (read back as Latin-1, a one-byte string that parses fast). */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The string table of the columns: every kind of string of every entry, in block order. */
function stringTable(columns: StoredSnapshotEntries): string[] {
  const { count } = columns;
  const strings: string[] = new Array(KINDS * count);
  for (let i = 0; i < count; i++) {
    const metadata = columns.metadata[i];
    strings[i] = columns.dir[i] ?? "";
    strings[count + i] = columns.mtimeNs[i] ?? "";
    strings[2 * count + i] = columns.ctimeNs[i] ?? "";
    strings[3 * count + i] = metadata && typeof metadata.name === "string" ? metadata.name : "";
  }
  return strings;
}

/** Each entry's description ("" for a refused skill). */
function descriptionsOf(columns: StoredSnapshotEntries): string[] {
  return Array.from({ length: columns.count }, (_, i) => {
    const metadata = columns.metadata[i];
    return metadata && typeof metadata.description === "string" ? metadata.description : "";
  });
}

/** Entries with some diagnostics, as `[entry, diagnostics]` pairs. */
function sparse<T>(lists: ReadonlyArray<readonly T[] | undefined>): Array<[number, readonly T[]]> {
  const pairs: Array<[number, readonly T[]]> = [];
  lists.forEach((list, i) => {
    if (list && list.length > 0) pairs.push([i, list]);
  });
  return pairs;
}

/**
 * Each value once (equal JSON, in order of first use) and, per item, the index of its value (-1 for `skip`): most
 * skills' metadata (without name and description) and diagnostics (without their path) are one of a few.
 */
function distinct<T>(items: readonly T[], skip: (item: T) => boolean): { values: T[]; indexes: number[] } {
  const values: T[] = [];
  const seen = new Map<string, number>();
  const indexes = items.map((item) => {
    if (skip(item)) return -1;
    const key = JSON.stringify(item);
    let index = seen.get(key);
    if (index === undefined) seen.set(key, (index = values.push(item) - 1));
    return index;
  });
  return { values, indexes };
}

/**
 * The JSON section: file names, roots, each distinct metadata (without what the entry says) and the index of each
 * entry's (-1: refused), each distinct list of diagnostics and `[entry, list]` for the entries that have some, the
 * refusals, each source's scan state.
 */
function jsonSection(columns: StoredSnapshotEntries, scanState: Record<string, unknown>): string {
  const metadata = distinct(
    Array.from({ length: columns.count }, (_, i) => metadataRest(columns.metadata[i])),
    (rest) => rest === 0,
  );
  const diagnostics = distinct(columns.diagnostics, (list) => !list || list.length === 0);
  return asciiJson({
    fileNames: columns.fileNames,
    roots: columns.roots,
    shapes: metadata.values,
    metadata: metadata.indexes,
    diagnosticLists: diagnostics.values,
    diagnostics: diagnostics.indexes.flatMap((list, i) => (list < 0 ? [] : [[i, list]])),
    refused: sparse(columns.refused),
    scanState,
  });
}

/**
 * The metadata with "" for the name and description the string table and the descriptions hold (a malformed one kept
 * as it is, for the reader to refuse).
 */
function metadataRest(metadata: Record<string, unknown> | 0 | undefined): Record<string, unknown> | 0 {
  if (!metadata) return 0;
  const { name, description } = metadata;
  return {
    ...metadata,
    name: typeof name === "string" ? "" : name,
    description: typeof description === "string" ? "" : description,
  };
}

/** The bytes of a snapshot file (without its MAC line): header fields, entries in columns, each source's scan state. */
export function packSnapshot(
  header: SnapshotHeaderFields,
  columns: StoredSnapshotEntries,
  scanState: Record<string, unknown>,
): Buffer {
  const { count } = columns;
  const strings = stringTable(columns);
  const table = strings.join("");
  const latin1 = !/[^\u0000-\u00ff]/.test(table);
  const jsonText = jsonSection(columns, scanState);
  const descriptions = descriptionsOf(columns);
  const isWide = descriptions.map((text) => /[^\u0000-\u00ff]/.test(text));
  const narrowText = descriptions.filter((_, i) => !isWide[i]).join("");
  const wideText = descriptions.filter((_, i) => isWide[i]).join("");
  const sizes: Sizes = {
    count,
    latin1,
    units: table.length,
    narrow: narrowText.length,
    wide: wideText.length,
    json: jsonText.length,
  };
  const headerBytes = Buffer.from(asciiJson({ ...header, ...sizes }), "latin1");
  const at = layout(align(12 + headerBytes.length, 8), sizes);
  const bytes = Buffer.alloc(at.end);
  bytes.write(MAGIC, 0, "latin1");
  bytes.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(bytes, 12);
  const put = (values: ArrayLike<number>, offset: number, width: 4 | 8) => {
    for (let i = 0; i < count; i++) {
      const value = Number(values[i] ?? 0);
      if (width === 8) bytes.writeDoubleLE(value, offset + 8 * i);
      else bytes.writeUInt32LE(value >>> 0, offset + 4 * i);
    }
  };
  put(columns.size, at.size, 8);
  put(columns.ino, at.ino, 8);
  put(columns.source, at.source, 4);
  put(columns.fileName, at.fileName, 4);
  put(columns.root, at.root, 4);
  let end = 0;
  bytes.writeUInt32LE(0, at.offsets);
  strings.forEach((text, k) => bytes.writeUInt32LE((end += text.length), at.offsets + 4 * (k + 1)));
  bytes.write(table, at.text, latin1 ? "latin1" : "utf16le");
  let narrowEnd = 0;
  let wideEnd = 0;
  bytes.writeUInt32LE(0, at.narrow);
  bytes.writeUInt32LE(0, at.wide);
  descriptions.forEach((text, i) => {
    if (isWide[i]) wideEnd += text.length;
    else narrowEnd += text.length;
    bytes.writeUInt32LE(narrowEnd, at.narrow + 4 * (i + 1));
    bytes.writeUInt32LE(wideEnd, at.wide + 4 * (i + 1));
  });
  bytes.write(narrowText, at.narrowText, "latin1");
  bytes.write(wideText, at.wideText, "utf16le");
  for (let i = 0; i < count; i++) {
    const hash = columns.hash[i] ?? "";
    const hasHash = /^[0-9a-f]{64}$/.test(hash);
    bytes[at.flags + i] = (columns.verify[i] === 1 ? FLAG_RACY : 0) | (hasHash ? FLAG_HASH : 0);
    if (hasHash) bytes.write(hash, at.hashes + 32 * i, "hex");
  }
  bytes.write(jsonText, at.json, "latin1");
  return bytes;
}

function align(offset: number, to: number): number {
  return Math.ceil(offset / to) * to;
}

/** The header of a snapshot file's bytes, unchecked but for being a JSON object; or why not. */
export function readSnapshotHeader(
  bytes: Uint8Array,
): { ok: true; header: Record<string, unknown>; start: number } | { ok: false; stale: boolean; problem: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 12 || buffer.toString("latin1", 0, MAGIC.length) !== MAGIC)
    return buffer[0] === 0x7b
      ? { ok: false, stale: true, problem: "an older snapshot format (JSON)" }
      : { ok: false, stale: false, problem: "not a skillgraph registry snapshot" };
  const length = buffer.readUInt32LE(8);
  if (12 + length > buffer.length) return { ok: false, stale: false, problem: "truncated header" };
  let header: unknown;
  try {
    header = JSON.parse(buffer.toString("latin1", 12, 12 + length));
  } catch {
    return { ok: false, stale: false, problem: "bad header" };
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    return { ok: false, stale: false, problem: "bad header" };
  return { ok: true, header: header as Record<string, unknown>, start: align(12 + length, 8) };
}

/** The sizes a header gives when they are sane, else undefined. */
function sizesOf(header: Record<string, unknown>): Sizes | undefined {
  const { count, latin1, units, narrow, wide, json } = header;
  for (const value of [count, units, narrow, wide, json])
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > MAX_ITEMS) return undefined;
  if (typeof latin1 !== "boolean") return undefined;
  return {
    count: count as number,
    latin1,
    units: units as number,
    narrow: narrow as number,
    wide: wide as number,
    json: json as number,
  };
}

/**
 * The sections of a snapshot file whose header was read (`start` from `readSnapshotHeader`): views on `bytes`, the
 * JSON section parsed. Undefined plus why when the sizes do not add up to the file's length (truncated, grown,
 * corrupt) or the JSON section does not parse; the contents are checked by snapshot-entries.ts.
 */
export function readSnapshotSections(
  bytes: Uint8Array,
  header: Record<string, unknown>,
  start: number,
): { ok: true; sections: SnapshotSections } | { ok: false; problem: string } {
  if (!LITTLE_ENDIAN) return { ok: false, problem: "a big-endian machine reads no binary snapshot" };
  const sizes = sizesOf(header);
  if (!sizes) return { ok: false, problem: "bad sizes in the header" };
  const at = layout(start, sizes);
  if (at.end !== bytes.length) return { ok: false, problem: `${bytes.length} bytes, the header says ${at.end}` };
  const { count } = sizes;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + at.json, sizes.json).toString("latin1"));
  } catch {
    return { ok: false, problem: "bad JSON section" };
  }
  const units = sizes.latin1
    ? bytes.subarray(at.text, at.text + sizes.units)
    : view(bytes, Uint16Array, at.text, sizes.units);
  return {
    ok: true,
    sections: {
      count,
      size: view(bytes, Float64Array, at.size, count),
      ino: view(bytes, Float64Array, at.ino, count),
      source: view(bytes, Uint32Array, at.source, count),
      fileName: view(bytes, Uint32Array, at.fileName, count),
      root: view(bytes, Uint32Array, at.root, count),
      offsets: view(bytes, Uint32Array, at.offsets, KINDS * count + 1),
      units,
      narrow: view(bytes, Uint32Array, at.narrow, count + 1),
      wide: view(bytes, Uint32Array, at.wide, count + 1),
      narrowText: bytes.subarray(at.narrowText, at.narrowText + sizes.narrow),
      wideText: view(bytes, Uint16Array, at.wideText, sizes.wide),
      flags: bytes.subarray(at.flags, at.flags + count),
      hashes: bytes.subarray(at.hashes, at.hashes + 32 * count),
      json,
    },
  };
}

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** A typed array over `length` items at `offset` of `bytes`: a view when aligned, else a copy. */
function view<T>(bytes: Uint8Array, Type: TypedArrayOf<T>, offset: number, length: number): T {
  const at = bytes.byteOffset + offset;
  if (at % Type.BYTES_PER_ELEMENT === 0) return new Type(bytes.buffer, at, length);
  // A copy (Uint8Array's slice: a Buffer's would be another view), which starts at offset 0 of its own memory.
  const copy = Uint8Array.prototype.slice.call(bytes, offset, offset + length * Type.BYTES_PER_ELEMENT);
  return new Type(copy.buffer, 0, length);
}
