import { createRequire } from "node:module";
import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { FileIdentity } from "../sources/skill-source.js";

/** Marker and layout version of a registry snapshot file; a change of layout bumps `SNAPSHOT_FORMAT_VERSION`. */
export const SNAPSHOT_FORMAT = "skillgraph-registry-snapshot";
export const SNAPSHOT_FORMAT_VERSION = 1;

/** The version of @skillgraph/core writing snapshots: a snapshot from another version is never served. */
export const SKILLGRAPH_CORE_VERSION: string = (
  createRequire(import.meta.url)("../../package.json") as { version: string }
).version;

/**
 * "Racy git" window: a SKILL.md whose mtime or ctime lies within this many nanoseconds before the moment it was read
 * (or before the snapshot was written) could have been edited again in the same clock tick without its stat changing,
 * so its entry is checked against the file's content hash instead of being trusted on stat alone. 2 s covers the
 * coarsest common file-system timestamps (FAT); on the fast path it costs nothing, a racy entry costs one read.
 */
export const RACY_WINDOW_NS = 2_000_000_000n;

/** One SKILL.md as recorded in a snapshot: where it was, its stat identity, and what loading it gave. */
export interface SnapshotEntry {
  sourceId: string;
  dir: string;
  file: string;
  root: string;
  identity: FileIdentity;
  /** sha256 of the bytes read, when the file could be read. */
  hash: string | undefined;
  /** Loaded metadata (no body), or undefined when the skill was refused. */
  metadata: Omit<SkillMetadata, "origin"> | undefined;
  refused: SkillDiagnostic[];
  /** Racily clean when recorded: trust it only after comparing the content hash. */
  verify: boolean;
}

/** A whole snapshot file. */
export interface SnapshotFile {
  format: typeof SNAPSHOT_FORMAT;
  formatVersion: number;
  coreVersion: string;
  /** Load settings the entries were produced with; a registry with other settings ignores the snapshot. */
  settings: { strict: boolean; maxBytes: number };
  /** Ids of the disk sources the snapshot covers (sorted). */
  sources: string[];
  entries: SnapshotEntry[];
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
  if (value.formatVersion !== SNAPSHOT_FORMAT_VERSION)
    return stale(`snapshot format ${String(value.formatVersion)}, expected ${SNAPSHOT_FORMAT_VERSION}`);
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
  if (!Array.isArray(value.entries)) return corrupt("bad 'entries'");
  if (value.scanState !== undefined && !isRecord(value.scanState)) return corrupt("bad 'scanState'");
  const known = new Set(expected.sources);
  for (let i = 0; i < value.entries.length; i++) {
    const problem = entryProblem(value.entries[i], known);
    if (problem) return corrupt(`entry ${i}: ${problem}`);
  }
  return { ok: true, snapshot: value as unknown as SnapshotFile };
}

function entryProblem(entry: unknown, sources: ReadonlySet<string>): string | undefined {
  if (!isRecord(entry)) return "not an object";
  if (typeof entry.sourceId !== "string" || !sources.has(entry.sourceId)) return "unknown source";
  for (const key of ["dir", "file", "root"] as const)
    if (typeof entry[key] !== "string" || entry[key] === "") return `bad '${key}'`;
  const identity = entry.identity;
  if (!isRecord(identity)) return "bad 'identity'";
  for (const key of ["mtimeMs", "size", "ino"] as const)
    if (typeof identity[key] !== "number" || !Number.isFinite(identity[key])) return `bad 'identity.${key}'`;
  for (const key of ["mtimeNs", "ctimeNs"] as const)
    if (typeof identity[key] !== "string" || !/^\d{1,30}$/.test(identity[key])) return `bad 'identity.${key}'`;
  if (entry.hash !== undefined && !isHash(entry.hash)) return "bad 'hash'";
  if (typeof entry.verify !== "boolean") return "bad 'verify'";
  if (!isDiagnostics(entry.refused)) return "bad 'refused'";
  if (entry.metadata === undefined) return entry.refused.length > 0 ? undefined : "neither metadata nor refusal";
  return metadataProblem(entry.metadata, entry.dir as string, entry.file as string);
}

function metadataProblem(metadata: unknown, dir: string, file: string): string | undefined {
  if (!isRecord(metadata)) return "bad 'metadata'";
  if (typeof metadata.name !== "string" || metadata.name.trim() === "" || typeof metadata.description !== "string")
    return "bad metadata name/description";
  if (metadata.dir !== dir || metadata.file !== file) return "metadata path does not match the entry";
  if (!isHash(metadata.hash)) return "bad metadata hash";
  if (!isStringArray(metadata.allowedTools)) return "bad metadata allowedTools";
  if (!isRecord(metadata.extra)) return "bad metadata extra";
  if (metadata.metadata !== undefined && !isRecord(metadata.metadata)) return "bad metadata metadata";
  for (const key of ["license", "compatibility"] as const)
    if (metadata[key] !== undefined && typeof metadata[key] !== "string") return `bad metadata ${key}`;
  if (!isDiagnostics(metadata.diagnostics)) return "bad metadata diagnostics";
  return undefined;
}

function isDiagnostics(value: unknown): value is SkillDiagnostic[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        isRecord(item) &&
        typeof item.code === "string" &&
        (item.severity === "error" || item.severity === "warning") &&
        typeof item.message === "string" &&
        typeof item.path === "string" &&
        (item.field === undefined || typeof item.field === "string") &&
        (item.line === undefined || typeof item.line === "number") &&
        (item.column === undefined || typeof item.column === "number"),
    )
  );
}

function isHash(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
