import { closeSync, readFileSync } from "node:fs";
import type { IndexState } from "../search/index-state.js";
import { signCacheBytes, verifiedCachePayload } from "./cache-key.js";
import {
  decodeSearchIndex,
  encodeSearchIndex,
  type DecodedSearchIndex,
  type StoredDocumentKey,
} from "./search-index-codec.js";
import { openTrustedCacheFile, writeCacheFileAtomic } from "./trusted-cache-file.js";

// The search index of a registry snapshot lives in a file beside it (`<snapshot>.search`), read only when the index is
// first needed: a cold start that never searches does not read it. It is the index's typed arrays as they are in
// memory (see search-index-codec.ts), read in one go and used in place; each stored document carries the content hash
// and a check of the name and description it was analyzed from, so a document whose skill changed since is dropped and
// that skill analyzed from its file again.

/** Suffix of the search-index file beside a snapshot file. */
export const SEARCH_INDEX_SUFFIX = ".search";
/** Largest search-index file read (10 000 skills of ~5 KB give about 30 MB). */
const MAX_SEARCH_INDEX_BYTES = 512 * 1024 * 1024;

/** The search-index file of a snapshot file. */
export function searchIndexFile(snapshotPath: string): string {
  return snapshotPath + SEARCH_INDEX_SUFFIX;
}

/**
 * Reads the stored index beside a snapshot (synchronous: the index is built inside a synchronous search). A missing,
 * unreadable, oversized, mis-signed, truncated, corrupt or stale file (another snapshot or core version) gives
 * undefined, and so does a file someone else than this user (or root) could have written (see trusted-cache-file.ts):
 * the skills are then analyzed from their files. Never throws.
 */
export function readStoredSearchIndex(snapshotPath: string): DecodedSearchIndex | undefined {
  try {
    // Only a file this user (or root) wrote: a planted one would change the ranking.
    const opened = openTrustedCacheFile(searchIndexFile(snapshotPath));
    if (!opened.ok) return undefined;
    try {
      if (opened.stats.size > BigInt(MAX_SEARCH_INDEX_BYTES)) return undefined;
      // Signed by this user's skillgraph (see cache-key.ts): an edited or shipped file is ignored, the index rebuilt.
      const payload = verifiedCachePayload(readFileSync(opened.fd));
      return payload === undefined ? undefined : decodeSearchIndex(payload);
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Writes an index beside a snapshot, atomically (`writeCacheFileAtomic`), signed; `keyOf(id)` gives what document `id`
 * was analyzed from. Throws on I/O errors. Returns the bytes written.
 */
export async function writeStoredSearchIndex(
  snapshotPath: string,
  state: IndexState,
  keyOf: (id: number) => StoredDocumentKey,
): Promise<number> {
  return writeCacheFileAtomic(searchIndexFile(snapshotPath), signCacheBytes(encodeSearchIndex(state, keyOf)));
}
