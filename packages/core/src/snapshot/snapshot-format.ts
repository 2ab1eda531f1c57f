import { createRequire } from "node:module";
import { SEARCH_INDEX_FORMAT_VERSION } from "../search/indexed-document.js";
import { decodeSnapshotEntries } from "./snapshot-entries-codec.js";
import type { StoredCandidate } from "./stored-candidate.js";

/** Marker and layout version of a registry snapshot file; a change of layout bumps `SNAPSHOT_FORMAT_VERSION`. */
export const SNAPSHOT_FORMAT = "skillgraph-registry-snapshot";
export const SNAPSHOT_FORMAT_VERSION = 2;
/**
 * What a snapshot's `formatVersion` must be: the layout version and the search-index format together, so a change of
 * either invalidates snapshots (and their search-index files, see snapshot-search-index.ts).
 */
export const SNAPSHOT_VERSION = `${SNAPSHOT_FORMAT_VERSION}+search-index.${SEARCH_INDEX_FORMAT_VERSION}`;

/** The version of @skillgraph/core writing snapshots: a snapshot from another version is never served. */
export const SKILLGRAPH_CORE_VERSION: string = (
  createRequire(import.meta.url)("../../package.json") as { version: string }
).version;

/** A whole snapshot file. */
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

/** Why a snapshot file was not used. */
export type SnapshotRejection = { kind: "corrupt"; message: string } | { kind: "stale"; message: string };

/**
 * Checks a parsed snapshot file field by field (it is untrusted input: hand-edited, truncated, from another tool).
 * Returns the snapshot, or why it cannot be used; never throws.
 */
export function checkSnapshotFile(
  value: unknown,
  expected: { settings: { strict: boolean; maxBytes: number }; sources: string[] },
): { ok: true; snapshot: SnapshotFile } | { ok: false; rejection: SnapshotRejection } {
  const corrupt = (message: string) => ({ ok: false as const, rejection: { kind: "corrupt" as const, message } });
  const stale = (message: string) => ({ ok: false as const, rejection: { kind: "stale" as const, message } });
  if (!isRecord(value) || value.format !== SNAPSHOT_FORMAT) return corrupt("not a skillgraph registry snapshot");
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
  if (value.scanState !== undefined && !isRecord(value.scanState)) return corrupt("bad 'scanState'");
  const decoded = decodeSnapshotEntries(value.entries, value.sources);
  if (!decoded.ok) return corrupt(decoded.problem);
  return { ok: true, snapshot: { ...(value as unknown as SnapshotFile), entries: decoded.entries } };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
