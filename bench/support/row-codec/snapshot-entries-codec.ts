import { z } from "zod";
import type { StoredCandidate } from "../../../packages/core/src/snapshot/stored-candidate.js";
import { describeFirstIssue, isPlainName, isRecord } from "./row-value-checks.js";

// The alternative to core's columnar snapshot codec that bench/snapshot-codec.ts measures: one JSON object per entry,
// the entry as the registry holds it (the metadata's `origin` and the stat's millisecond time aside), every field
// checked by a zod schema, the cross-field rules (file in its folder, metadata of that file) checked after it. Same
// exports and the same checks as packages/core/src/snapshot/snapshot-entries-codec.ts.

/** One entry as stored. */
export type StoredSnapshotEntry = z.input<typeof storedEntrySchema>;

const decimal = z.string().regex(/^(?:0|[1-9][0-9]{0,29})$/, "not a decimal nanosecond time");
const hash = z.string().regex(/^[0-9a-f]{64}$/, "not a sha256 hex digest");
const record = z.custom<Record<string, unknown>>(isRecord, "not an object");
const strings = z.array(z.string());
const position = z.number().int().positive();

const diagnosticSchema = z.strictObject({
  code: z.string(),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  path: z.string(),
  field: z.string().optional(),
  line: position.optional(),
  column: position.optional(),
});

const metadataSchema = z.strictObject({
  name: z.string().refine((name) => name.trim() !== "", "empty name"),
  description: z.string(),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  // Kept as parsed: passed through (never copied key by key, so a `__proto__` key stays a plain key).
  metadata: record.optional(),
  allowedTools: strings,
  dependencies: z.strictObject({ bins: strings, apt: strings, uv: strings }).optional(),
  extra: record,
  dir: z.string(),
  file: z.string(),
  hash,
  diagnostics: z.array(diagnosticSchema),
});

const storedEntrySchema = z.strictObject({
  sourceId: z.string(),
  dir: z.string().min(1),
  file: z.string(),
  root: z.string().min(1),
  identity: z.strictObject({ size: z.number(), ino: z.number(), mtimeNs: decimal, ctimeNs: decimal }),
  hash: hash.optional(),
  metadata: metadataSchema.optional(),
  refused: z.array(diagnosticSchema),
  verify: z.boolean(),
});

const storedEntriesSchema = z.array(storedEntrySchema);

/**
 * What is wrong with an entry whose fields each have the right type: the SKILL.md must be a file directly in the
 * skill folder, and the metadata must be that file's (same folder, file and hash), or the skill refused with a reason.
 */
function entryShapeProblem(entry: z.output<typeof storedEntrySchema>): string | undefined {
  const fileName = entry.file.slice(entry.dir.length + 1);
  if (entry.file !== `${entry.dir}/${fileName}` || !isPlainName(fileName)) return "'file' is not a file in 'dir'";
  const { metadata } = entry;
  if (!metadata) return entry.refused.length === 0 ? "neither metadata nor refusal" : undefined;
  if (entry.hash === undefined || metadata.hash !== entry.hash) return "metadata 'hash' is not the entry's";
  if (metadata.dir !== entry.dir || metadata.file !== entry.file) return "metadata 'dir'/'file' are not the entry's";
  return undefined;
}

/**
 * Stores entries. An entry whose paths or hash do not have the shape the reader checks (never the case for a folder
 * source) is left out: the registry then reads that file again on the next start instead of trusting it.
 */
export function encodeSnapshotEntries(
  entries: readonly StoredCandidate[],
  sources: readonly string[],
): StoredSnapshotEntry[] {
  const known = new Set(sources);
  const stored: StoredSnapshotEntry[] = [];
  for (const entry of entries) {
    const { mtimeMs: _mtimeMs, ...identity } = entry.identity;
    const { racy, ...fields } = entry;
    const row: StoredSnapshotEntry = { ...fields, identity, verify: racy };
    if (!known.has(entry.sourceId) || entryShapeProblem(row as z.output<typeof storedEntrySchema>)) continue;
    stored.push(row);
  }
  return stored;
}

/**
 * Reads stored entries back, checking every field (a snapshot is untrusted input: hand-edited, truncated, from another
 * tool). Returns the entries, or what is wrong with the first bad one (where and what); never throws.
 */
export function decodeSnapshotEntries(
  value: unknown,
  sources: readonly string[],
): { ok: true; entries: StoredCandidate[] } | { ok: false; problem: string } {
  const parsed = storedEntriesSchema.safeParse(value);
  if (!parsed.success) return { ok: false, problem: describeFirstIssue("entries", parsed.error) };
  const known = new Set(sources);
  const entries: StoredCandidate[] = new Array(parsed.data.length);
  for (const [i, { identity, verify, ...entry }] of parsed.data.entries()) {
    if (!known.has(entry.sourceId)) return { ok: false, problem: `entries[${i}].sourceId: unknown source` };
    const shapeProblem = entryShapeProblem({ identity, verify, ...entry });
    if (shapeProblem) return { ok: false, problem: `entries[${i}]: ${shapeProblem}` };
    // The millisecond time a bigint stat gives: the nanosecond time without its last six digits.
    const mtimeMs = identity.mtimeNs.length > 6 ? Number(identity.mtimeNs.slice(0, -6)) : 0;
    const stamp = { mtimeMs, ...identity };
    entries[i] = { ...entry, hash: entry.hash, metadata: entry.metadata, identity: stamp, racy: verify };
  }
  return { ok: true, entries };
}
