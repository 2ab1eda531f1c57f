import { createRequire } from "node:module";
import { SEARCH_INDEX_FORMAT_VERSION } from "../search/indexed-document.js";
import { packSnapshot, readSnapshotHeader, readSnapshotSections } from "./snapshot-binary.js";
import { encodeSnapshotEntries } from "./snapshot-entries-codec.js";
import { SnapshotEntries } from "./snapshot-entries.js";
import type { StoredCandidate } from "./stored-candidate.js";

/** Marker and layout version of a registry snapshot file; a change of layout bumps `SNAPSHOT_FORMAT_VERSION`. */
export const SNAPSHOT_FORMAT = "skillgraph-registry-snapshot";
export const SNAPSHOT_FORMAT_VERSION = 4;
/**
 * What a snapshot's `formatVersion` must be: the layout version and the search-index format together, so a change of
 * either invalidates snapshots (and their search-index files, see snapshot-search-index.ts).
 */
export const SNAPSHOT_VERSION = `${SNAPSHOT_FORMAT_VERSION}+search-index.${SEARCH_INDEX_FORMAT_VERSION}`;

/** The version of @skillgraph/core writing snapshots: a snapshot from another version is never served. */
export const SKILLGRAPH_CORE_VERSION: string = (
  createRequire(import.meta.url)("../../package.json") as { version: string }
).version;

/** A whole snapshot file, as written (one object per entry). */
export interface SnapshotFile {
  format: typeof SNAPSHOT_FORMAT;
  formatVersion: string;
  coreVersion: string;
  /** Load settings the entries were produced with; a registry with other settings ignores the snapshot. */
  settings: { strict: boolean; maxBytes: number };
  /** Ids of the disk sources the snapshot covers (sorted). */
  sources: string[];
  entries: StoredCandidate[];
  /** Per source id, what the source learnt while scanning (folder listings), checked by the source itself. */
  scanState?: Record<string, unknown>;
}

/** A snapshot file as read: its header, its entries checked and decoded lazily, each source's scan state. */
export interface CheckedSnapshot {
  settings: { strict: boolean; maxBytes: number };
  sources: string[];
  entries: SnapshotEntries;
  scanState: Record<string, unknown>;
}

/** Why a snapshot file was not used. */
export type SnapshotRejection = { kind: "corrupt"; message: string } | { kind: "stale"; message: string };

/** The bytes of a snapshot file without its MAC line (see snapshot-binary.ts for the layout). */
export function encodeSnapshotPayload(file: SnapshotFile): Buffer {
  const { format, formatVersion, coreVersion, settings, sources } = file;
  return packSnapshot(
    { format, formatVersion, coreVersion, settings, sources },
    encodeSnapshotEntries(file.entries, sources),
    file.scanState ?? {},
  );
}

/**
 * Checks the bytes of a snapshot file (without its MAC line; it is untrusted input: hand-edited, truncated, from
 * another tool): the header field by field, then the sizes of every section against the file's length, then every
 * entry's columns. `racyAfter` (from `racyThreshold` of the file's write time) marks entries changed just before it
 * was written. Returns the snapshot, or why it cannot be used; never throws.
 */
export function checkSnapshotFile(
  bytes: Uint8Array,
  expected: { settings: { strict: boolean; maxBytes: number }; sources: string[] },
  racyAfter?: string,
): { ok: true; snapshot: CheckedSnapshot } | { ok: false; rejection: SnapshotRejection } {
  const corrupt = (message: string) => ({ ok: false as const, rejection: { kind: "corrupt" as const, message } });
  const stale = (message: string) => ({ ok: false as const, rejection: { kind: "stale" as const, message } });
  const read = readSnapshotHeader(bytes);
  if (!read.ok) return read.stale ? stale(read.problem) : corrupt(read.problem);
  const { header: value } = read;
  if (value.format !== SNAPSHOT_FORMAT) return corrupt("not a skillgraph registry snapshot");
  if (value.formatVersion !== SNAPSHOT_VERSION)
    return stale(`snapshot format ${String(value.formatVersion)}, expected ${SNAPSHOT_VERSION}`);
  if (value.coreVersion !== SKILLGRAPH_CORE_VERSION)
    return stale(`written by @skillgraph/core ${String(value.coreVersion)}, this is ${SKILLGRAPH_CORE_VERSION}`);
  const settings = value.settings;
  if (!isRecord(settings) || typeof settings.strict !== "boolean" || typeof settings.maxBytes !== "number")
    return corrupt("bad 'settings'");
  if (settings.strict !== expected.settings.strict || settings.maxBytes !== expected.settings.maxBytes)
    return stale("written with other load settings (strict / maxSkillMdBytes)");
  if (!isStringArray(value.sources)) return corrupt("bad 'sources'");
  if (value.sources.join("\0") !== expected.sources.join("\0"))
    return stale("written for other skill sources (another root)");
  const sections = readSnapshotSections(bytes, value, read.start);
  if (!sections.ok) return corrupt(sections.problem);
  const opened = SnapshotEntries.open(sections.sections, value.sources, racyAfter);
  if (!opened.ok) return corrupt(opened.problem);
  const snapshot = {
    settings: { strict: settings.strict, maxBytes: settings.maxBytes },
    sources: value.sources,
    entries: opened.entries,
    scanState: opened.entries.scanState(),
  };
  return { ok: true, snapshot };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
