import { readFileSync, writeFileSync } from "node:fs";
import { signCacheBytes } from "../cache-key.js";
import { readSnapshotHeader, readSnapshotSections, type SnapshotHeaderFields } from "../snapshot-binary.js";
import { SnapshotEntries } from "../snapshot-entries.js";
import { encodeSnapshotPayload, type SnapshotFile } from "../snapshot-format.js";

// Test helpers: a snapshot file read whole (every entry decoded) or written from one object per entry.

/** The payload of a signed cache file's bytes (its MAC line dropped). */
export function unsignedPayload(bytes: Buffer): Buffer {
  return bytes.subarray(bytes.indexOf(0x0a) + 1);
}

/**
 * A snapshot file decoded whole, whatever its version, settings and sources (the header is not compared with
 * anything), with each entry's `racy` as written. Throws when it is not a well-formed snapshot.
 */
export function readSnapshotWhole(path: string): SnapshotFile {
  const payload = unsignedPayload(readFileSync(path));
  const read = readSnapshotHeader(payload);
  if (!read.ok) throw new Error(read.problem);
  const header = read.header as unknown as SnapshotHeaderFields;
  const sections = readSnapshotSections(payload, read.header, read.start);
  if (!sections.ok) throw new Error(sections.problem);
  const opened = SnapshotEntries.open(sections.sections, header.sources, undefined);
  if (!opened.ok) throw new Error(opened.problem);
  const { format, formatVersion, coreVersion, settings, sources } = header;
  return {
    format: format as SnapshotFile["format"],
    formatVersion,
    coreVersion,
    settings,
    sources,
    entries: opened.entries.all(),
    scanState: opened.entries.scanState(),
  };
}

/** Writes a snapshot file, signed with this user's cache key unless `signed` is false. */
export function writeSnapshotWhole(path: string, file: SnapshotFile, { signed = true } = {}): void {
  const payload = encodeSnapshotPayload(file);
  writeFileSync(path, signed ? signCacheBytes(payload) : payload);
}
