import { createHash } from "node:crypto";
import { FIELDS } from "../search/indexed-document.js";
import { DOCS_16_BIT, sumLengths, type IndexState } from "../search/index-state.js";
import { isOtherWhitespace } from "../search/term-slots.js";
import { TermTable } from "../search/term-table.js";
import { SKILLGRAPH_CORE_VERSION, SNAPSHOT_VERSION } from "./snapshot-format.js";

// The stored search index: the typed arrays of an `IndexState` laid out one after the other (little-endian, each at a
// multiple of 4 bytes), after a small JSON header giving their sizes, so a reader makes typed-array views on the bytes
// read and uses them in place. Per document it also holds what the document was analyzed from (the SKILL.md content
// hash and a check of the name and description), so the registry can tell which stored documents still describe
// its skills. Layout: u32 header length, header JSON (padded to 4), then content hashes (32 bytes a document), checks
// (u32 a document), field lengths (i32, 4 a document), term offsets (i32, terms + 1), posting starts (i32, terms + 1),
// posting frequencies (u32), posting documents (u16 up to DOCS_16_BIT documents, else i32), and the term text (UTF-16LE
// code units).

const FORMAT = "skillgraph-search-index-binary";
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Largest count of documents, terms or postings read (far above 10 000 skills, far below 2^31). */
const MAX_ITEMS = 2 ** 28;

/** What a stored document was analyzed from. */
export interface StoredDocumentKey {
  /** sha256 of the SKILL.md bytes, hex (64 digits). */
  hash: string;
  name: string;
  description: string;
}

/** A stored index: its state without the documents' details (the registry supplies them) and each one's key. */
export interface DecodedSearchIndex {
  state: Omit<IndexState, "docs">;
  /** Content hashes, 32 bytes a document. */
  hashes: Uint8Array;
  /** `metadataCheck` of each document's name and description. */
  checks: Uint32Array;
  /** `metadataDigest` of every document's name and description, in id order. */
  digest: string;
}

/** A 32-bit check of a name and description (not a secret: the file is signed; this only tells stale entries apart). */
export function metadataCheck(name: string, description: string): number {
  return mix(Math.imul(mix(0x811c9dc5, name), 0x01000193), description) >>> 0;
}

function mix(start: number, text: string): number {
  let hash = start;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * One digest of the names and descriptions of all documents, in id order: when every stored document still has its
 * skill's content hash, comparing it checks them all at once (one native hash instead of a check per document).
 */
export function metadataDigest(
  count: number,
  nameAt: (i: number) => string,
  descriptionAt: (i: number) => string,
): string {
  const hash = createHash("sha256");
  // In slices: one native call per slice, and no string of every description at once.
  for (let start = 0; start < count; start += 256) {
    const slice: string[] = [];
    for (let i = start; i < Math.min(count, start + 256); i++) slice.push(`${nameAt(i)}\0${descriptionAt(i)}\0`);
    hash.update(slice.join(""));
  }
  return hash.digest("hex");
}

interface Sizes {
  count: number;
  terms: number;
  termChars: number;
  postings: number;
}

/** Byte offset of every section after the header, and the end. */
function layout(start: number, sizes: Sizes) {
  const { count, terms, postings } = sizes;
  const hashes = start;
  const checks = hashes + 32 * count;
  const lengths = checks + 4 * count;
  const termOffsets = lengths + 4 * FIELDS.length * count;
  const starts = termOffsets + 4 * (terms + 1);
  const postingPacked = starts + 4 * (terms + 1);
  const postingDocs = postingPacked + 4 * postings;
  const termText = postingDocs + docBytes(count) * postings;
  return {
    hashes,
    checks,
    lengths,
    termOffsets,
    starts,
    postingDocs,
    postingPacked,
    termText,
    end: termText + 2 * sizes.termChars,
  };
}

/** Bytes of a stored posting document id. */
function docBytes(count: number): 2 | 4 {
  return count <= DOCS_16_BIT ? 2 : 4;
}

/** The bytes of a stored index: `keyOf(id)` gives what document `id` was analyzed from. */
export function encodeSearchIndex(state: IndexState, keyOf: (id: number) => StoredDocumentKey): Buffer {
  const sizes: Sizes = {
    count: state.count,
    terms: state.terms.size,
    termChars: state.terms.text.length,
    postings: state.postingDocs.length,
  };
  const keys = Array.from({ length: state.count }, (_, id) => keyOf(id));
  const digest = metadataDigest(
    keys.length,
    (i) => keys[i]!.name,
    (i) => keys[i]!.description,
  );
  const header = Buffer.from(
    JSON.stringify({
      format: FORMAT,
      formatVersion: SNAPSHOT_VERSION,
      coreVersion: SKILLGRAPH_CORE_VERSION,
      digest,
      ...sizes,
    }),
  );
  const start = 4 + Math.ceil(header.length / 4) * 4;
  const at = layout(start, sizes);
  const bytes = Buffer.alloc(at.end);
  bytes.writeUInt32LE(header.length, 0);
  header.copy(bytes, 4);
  const checks = Buffer.alloc(4 * state.count);
  keys.forEach((key, id) => {
    const hash = /^[0-9a-f]{64}$/.test(key.hash) ? Buffer.from(key.hash, "hex") : Buffer.alloc(32);
    hash.copy(bytes, at.hashes + 32 * id);
    checks.writeUInt32LE(metadataCheck(key.name, key.description), 4 * id);
  });
  checks.copy(bytes, at.checks);
  const put = (array: Int32Array | Uint32Array | Uint16Array, offset: number, width: 2 | 4 = 4) => {
    if (LITTLE_ENDIAN && array.BYTES_PER_ELEMENT === width)
      Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(bytes, offset);
    else if (width === 2) for (let i = 0; i < array.length; i++) bytes.writeUInt16LE(array[i]!, offset + 2 * i);
    else for (let i = 0; i < array.length; i++) bytes.writeUInt32LE(array[i]! >>> 0, offset + 4 * i);
  };
  put(state.lengths, at.lengths);
  put(state.terms.offsets, at.termOffsets);
  put(state.starts, at.starts);
  put(state.postingDocs, at.postingDocs, docBytes(state.count));
  put(state.postingPacked, at.postingPacked);
  bytes.write(state.terms.text, at.termText, "utf16le");
  return bytes;
}

/** The header's sizes when it is this format, version and core version with sane counts, else undefined. */
function readHeader(bytes: Uint8Array): { sizes: Sizes; start: number; digest: string } | undefined {
  if (bytes.length < 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  if (length > 4096 || 4 + length > bytes.length) return undefined;
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, length).toString("utf8")) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined;
  }
  if (typeof header !== "object" || header === null) return undefined;
  if (
    header.format !== FORMAT ||
    header.formatVersion !== SNAPSHOT_VERSION ||
    header.coreVersion !== SKILLGRAPH_CORE_VERSION
  )
    return undefined;
  if (typeof header.digest !== "string") return undefined;
  const sizes = { count: header.count, terms: header.terms, termChars: header.termChars, postings: header.postings };
  for (const value of Object.values(sizes))
    if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_ITEMS) return undefined;
  return { sizes: sizes as Sizes, start: 4 + Math.ceil(length / 4) * 4, digest: header.digest };
}

/**
 * Reads a stored index in place: typed-array views on `bytes` (copied once when not 4-byte aligned), every invariant
 * the ranking relies on checked (sizes, sorted distinct terms without whitespace, posting lists in increasing
 * document order within range, frequencies a real analysis can give). Anything else gives undefined. Never throws.
 */
export function decodeSearchIndex(input: Uint8Array): DecodedSearchIndex | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const bytes = input.byteOffset % 4 === 0 ? input : new Uint8Array(input);
  const header = readHeader(bytes);
  if (!header) return undefined;
  const { sizes } = header;
  const at = layout(header.start, sizes);
  if (at.end !== bytes.length) return undefined;
  const ints = (offset: number, length: number) => new Int32Array(bytes.buffer, bytes.byteOffset + offset, length);
  const lengths = ints(at.lengths, FIELDS.length * sizes.count);
  const termOffsets = ints(at.termOffsets, sizes.terms + 1);
  const starts = ints(at.starts, sizes.terms + 1);
  const postingDocs =
    docBytes(sizes.count) === 2
      ? new Uint16Array(bytes.buffer, bytes.byteOffset + at.postingDocs, sizes.postings)
      : ints(at.postingDocs, sizes.postings);
  const postingPacked = new Uint32Array(bytes.buffer, bytes.byteOffset + at.postingPacked, sizes.postings);
  for (let i = 0; i < lengths.length; i++) if (lengths[i]! < 0) return undefined;
  const units = new Uint16Array(bytes.buffer, bytes.byteOffset + at.termText, sizes.termChars);
  if (!validTerms(units, termOffsets)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + at.termText, 2 * sizes.termChars).toString("utf16le");
  if (text.length !== sizes.termChars) return undefined;
  const headCounts = checkPostings(starts, postingDocs, postingPacked, sizes.count);
  if (!headCounts) return undefined;
  return {
    state: {
      count: sizes.count,
      lengths,
      lengthSums: sumLengths(lengths),
      terms: new TermTable(text, termOffsets),
      starts,
      postingDocs,
      postingPacked,
      headCounts,
    },
    hashes: new Uint8Array(bytes.buffer, bytes.byteOffset + at.hashes, 32 * sizes.count),
    checks: new Uint32Array(bytes.buffer, bytes.byteOffset + at.checks, sizes.count),
    digest: header.digest,
  };
}

/** Offsets from 0 to the text's end, every term non-empty, without whitespace, and in strictly increasing order. */
function validTerms(text: Uint16Array, offsets: Int32Array): boolean {
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== text.length) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text[i]!;
    if (code <= 32 ? code === 32 || (code >= 9 && code <= 13) : code >= 0xa0 && isOtherWhitespace(code)) return false;
  }
  for (let id = 0; id + 1 < offsets.length; id++) {
    const start = offsets[id]!;
    const end = offsets[id + 1]!;
    if (end <= start) return false;
    if (id === 0) continue;
    const previous = offsets[id - 1]!;
    const common = Math.min(start - previous, end - start);
    let k = 0;
    while (k < common && text[previous + k] === text[start + k]) k++;
    // Greater at the first difference, or longer with the previous as its prefix.
    const greater = k < common ? text[start + k]! > text[previous + k]! : end - start > start - previous;
    if (!greater) return false;
  }
  return true;
}

/** Each term's head count when every list is non-empty, ordered, in range, with real frequencies; else undefined. */
function checkPostings(
  starts: Int32Array,
  docs: Int32Array | Uint16Array,
  packed: Uint32Array,
  count: number,
): Int32Array | undefined {
  const terms = starts.length - 1;
  if (starts[0] !== 0 || starts[terms] !== docs.length) return undefined;
  const heads = new Int32Array(terms);
  for (let term = 0; term < terms; term++) {
    const start = starts[term]!;
    const end = starts[term + 1]!;
    if (end <= start || end > docs.length) return undefined;
    let previous = -1;
    let head = 0;
    for (let at = start; at < end; at++) {
      const doc = docs[at]!;
      const value = packed[at]!;
      // packFrequencies fills 31 bits; a term with no occurrence in any field is never stored.
      if (doc <= previous || doc >= count || value === 0 || value >= 2 ** 31) return undefined;
      previous = doc;
      // In the name (4 bits) or description (7 bits): the low 11 bits (see packFrequencies); inlined, a hot loop.
      if ((value & 0x7ff) !== 0) head++;
    }
    heads[term] = head;
  }
  return heads;
}
