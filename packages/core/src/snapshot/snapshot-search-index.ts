import { createHash } from "node:crypto";
import { closeSync, readFileSync } from "node:fs";
import { FIELDS, type IndexedDocument } from "../search/indexed-document.js";
import { termsOfList } from "../search/term-slots.js";
import { SKILLGRAPH_CORE_VERSION, SNAPSHOT_VERSION } from "./snapshot-format.js";
import { signCacheText, verifiedCachePayload } from "./cache-key.js";
import { openTrustedCacheFile, writeCacheFileAtomic } from "./trusted-cache-file.js";

// The search index of a registry snapshot lives in a file beside it (`<snapshot>.search`), read only when the index is
// first needed: a cold start that never searches does not parse it. Entries are keyed by the SKILL.md content hash
// with the name and description the registry derived from it (the analysis depends on nothing else), so an entry can
// never describe another version of a skill: an edited skill has a new key and is analyzed from its file again.

/** Suffix of the search-index file beside a snapshot file. */
export const SEARCH_INDEX_SUFFIX = ".search";
const SEARCH_INDEX_FORMAT = "skillgraph-search-index";
/** Largest search-index file read (10 000 skills of ~5 KB give about 35 MB). */
const MAX_SEARCH_INDEX_BYTES = 512 * 1024 * 1024;

/**
 * One skill's search analysis as stored: field lengths, its distinct terms (joined by spaces: terms never contain
 * whitespace) and their packed field frequencies (little-endian uint32, base64). Name, description and path are not
 * stored: they come from the skill's metadata, which the same content hash covers.
 */
export interface StoredSearchAnalysis {
  lengths: number[];
  terms: string;
  packed: string;
}

/** The stored form of an analyzed document. */
export function storeSearchAnalysis(document: IndexedDocument): StoredSearchAnalysis {
  const packed = Buffer.alloc(document.packed.length * 4);
  document.packed.forEach((value, i) => packed.writeUInt32LE(value, i * 4));
  return { lengths: [...document.lengths], terms: document.terms.join(" "), packed: packed.toString("base64") };
}

const MAX_FIELD_LENGTH = 2 ** 31;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Rebuilds an analyzed document from its stored form and the skill's current metadata. The snapshot is untrusted
 * input: anything malformed (wrong types, counts that disagree, terms repeated or blank) gives `undefined`, and the
 * registry then analyzes the skill from its file instead. Never throws.
 */
export function restoreSearchAnalysis(
  stored: unknown,
  metadata: { name: string; description: string; path: string },
): IndexedDocument | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { lengths, terms, packed } = stored as Record<string, unknown>;
  if (
    !Array.isArray(lengths) ||
    lengths.length !== FIELDS.length ||
    !lengths.every((length) => Number.isInteger(length) && length >= 0 && length < MAX_FIELD_LENGTH)
  )
    return undefined;
  if (typeof terms !== "string" || typeof packed !== "string") return undefined;
  // Terms are separated by single spaces and hold no whitespace; repeated terms are refused. The others are read as the
  // analyzer's shared strings.
  const termList = terms === "" ? [] : termsOfList(terms);
  if (termList === undefined) return undefined;
  const bytes = Buffer.from(packed, "base64");
  if (bytes.length !== termList.length * 4 || bytes.toString("base64") !== packed) return undefined;
  const frequencies = new Uint32Array(termList.length);
  if (LITTLE_ENDIAN) new Uint8Array(frequencies.buffer).set(bytes);
  else for (let i = 0; i < termList.length; i++) frequencies[i] = bytes.readUInt32LE(i * 4);
  for (let i = 0; i < frequencies.length; i++) {
    const value = frequencies[i]!;
    // packFrequencies fills 31 bits; a term with no occurrence in any field is never stored.
    if (value === 0 || value >= 2 ** 31) return undefined;
  }
  return {
    name: metadata.name,
    description: metadata.description,
    path: metadata.path,
    lengths: lengths as number[],
    terms: termList,
    packed: frequencies,
    scratch: { pass: 0, total: 0, slot: 0, best: 0, names: 0 },
  };
}

/** The key of a skill's stored analysis: its SKILL.md content hash, name and description. */
export function analysisKey(metadata: { hash: string; name: string; description: string }): string {
  return createHash("sha256").update(`${metadata.hash}\0${metadata.name}\0${metadata.description}`).digest("hex");
}

/** The search-index file of a snapshot file. */
export function searchIndexFile(snapshotPath: string): string {
  return snapshotPath + SEARCH_INDEX_SUFFIX;
}

/**
 * Reads the stored analyses beside a snapshot (synchronous: the index is built inside a synchronous search), keyed by
 * `analysisKey`. A missing, unreadable, oversized, corrupt or stale file (another snapshot or core version) gives an
 * empty map, and so does a file someone else than this user (or root) could have written (see trusted-cache-file.ts):
 * the skills are then analyzed from their files. Entries are checked one by one when restored. Never throws.
 */
export function readStoredAnalyses(snapshotPath: string): Map<string, unknown> {
  let text: string;
  try {
    // Only a file this user (or root) wrote: a planted one would change the ranking.
    const opened = openTrustedCacheFile(searchIndexFile(snapshotPath));
    if (!opened.ok) return new Map();
    try {
      if (opened.stats.size > BigInt(MAX_SEARCH_INDEX_BYTES)) return new Map();
      // Signed by this user's skillgraph (see cache-key.ts): an edited or shipped file is ignored, the index rebuilt.
      const payload = verifiedCachePayload(readFileSync(opened.fd));
      if (payload === undefined) return new Map();
      text = payload.toString("utf8");
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return new Map();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Map();
  }
  if (typeof parsed !== "object" || parsed === null) return new Map();
  const file = parsed as Record<string, unknown>;
  if (
    file.format !== SEARCH_INDEX_FORMAT ||
    file.formatVersion !== SNAPSHOT_VERSION ||
    file.coreVersion !== SKILLGRAPH_CORE_VERSION ||
    typeof file.entries !== "object" ||
    file.entries === null ||
    Array.isArray(file.entries)
  )
    return new Map();
  const entries = new Map<string, unknown>();
  for (const [hash, value] of Object.entries(file.entries as Record<string, unknown>))
    if (/^[0-9a-f]{64}$/.test(hash)) entries.set(hash, value);
  return entries;
}

/** Writes the analyses (by `analysisKey`) beside a snapshot, atomically (`writeCacheFileAtomic`). Throws on I/O errors. */
export async function writeStoredAnalyses(
  snapshotPath: string,
  analyses: ReadonlyMap<string, IndexedDocument>,
): Promise<number> {
  const entries: Record<string, StoredSearchAnalysis> = {};
  for (const hash of [...analyses.keys()].sort()) entries[hash] = storeSearchAnalysis(analyses.get(hash)!);
  const text = JSON.stringify({
    format: SEARCH_INDEX_FORMAT,
    formatVersion: SNAPSHOT_VERSION,
    coreVersion: SKILLGRAPH_CORE_VERSION,
    entries,
  });
  return writeCacheFileAtomic(searchIndexFile(snapshotPath), signCacheText(text));
}
