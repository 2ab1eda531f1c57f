import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { identityFromBigStats } from "../skill/skill-file-identity.js";
import {
  packSnapshot,
  readSnapshotHeader,
  readSnapshotSections,
  type SnapshotHeaderFields,
} from "./snapshot-binary.js";
import { encodeSnapshotEntries, type StoredSnapshotEntries } from "./snapshot-entries-codec.js";
import { SnapshotEntries } from "./snapshot-entries.js";
import {
  checkSnapshotFile,
  encodeSnapshotPayload,
  SKILLGRAPH_CORE_VERSION,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotFile,
} from "./snapshot-format.js";
import type { StoredCandidate } from "./stored-candidate.js";

const hash = (digit: string) => digit.repeat(64);
const identity = {
  mtimeMs: 1_600_000_000_123,
  size: 42,
  ino: 7,
  mtimeNs: "1600000000123456789",
  ctimeNs: "1600000000123456789",
};
const SOURCES = ["dir:/skills", "npm:pkg"];
const SETTINGS = { strict: false, maxBytes: 1024 };
const HEADER: SnapshotHeaderFields = {
  format: SNAPSHOT_FORMAT,
  formatVersion: SNAPSHOT_VERSION,
  coreVersion: SKILLGRAPH_CORE_VERSION,
  settings: SETTINGS,
  sources: SOURCES,
};

function entry(dir: string, overrides: Partial<StoredCandidate> = {}): StoredCandidate {
  const file = `${dir}/SKILL.md`;
  return {
    sourceId: "dir:/skills",
    dir,
    file,
    root: dir,
    identity,
    hash: hash("a"),
    metadata: {
      name: dir.split("/").pop()!,
      description: "Does things.",
      allowedTools: ["Read", "Bash(git:*)"],
      extra: { requires: { mcp: ["rube"] }, version: "1" },
      metadata: { author: "me" },
      license: "MIT",
      compatibility: "node",
      dependencies: { bins: ["git"], apt: [], uv: ["pandas"] },
      dir,
      file,
      hash: hash("a"),
      diagnostics: [
        { code: "yaml-invalid", severity: "error", message: `${file}:5:8: flow list`, path: file, line: 5, column: 8 },
        { code: "name-dir-mismatch", severity: "error", message: `${file}: name`, path: file, field: "name" },
        { code: "other-file", severity: "warning", message: "no path prefix here", path: "/elsewhere/x" },
      ],
    },
    refused: [],
    racy: false,
    ...overrides,
  };
}

const refusedFile = "/skills/zz-broken/skill.md";
const refusedEntry: StoredCandidate = {
  sourceId: "dir:/skills",
  dir: "/skills/zz-broken",
  file: refusedFile,
  root: "/skills/zz-broken",
  identity: { ...identity, mtimeMs: 0, mtimeNs: "999", ctimeNs: "0" },
  hash: undefined,
  metadata: undefined,
  refused: [{ code: "encoding-invalid", severity: "error", message: `${refusedFile}: not UTF-8`, path: refusedFile }],
  racy: false,
};

/** Packs entries (or edited columns) and opens them again; `offset` places the payload that far into its memory. */
function roundTrip(
  columns: StoredSnapshotEntries,
  { offset = 0, racyAfter }: { offset?: number; racyAfter?: string } = {},
) {
  const packed = packSnapshot(HEADER, columns, { "dir:/skills": { options: "x" } });
  const bytes = new Uint8Array(packed.length + offset).subarray(offset);
  bytes.set(packed);
  const read = readSnapshotHeader(bytes);
  if (!read.ok) return { ok: false as const, problem: read.problem };
  const sections = readSnapshotSections(bytes, read.header, read.start);
  if (!sections.ok) return sections;
  return SnapshotEntries.open(sections.sections, SOURCES, racyAfter);
}

function entriesOf(list: StoredCandidate[], options: { offset?: number; racyAfter?: string } = {}): SnapshotEntries {
  const opened = roundTrip(encodeSnapshotEntries(list, SOURCES), options);
  if (!opened.ok) throw new Error(opened.problem);
  return opened.entries;
}

describe("binary snapshot codec", () => {
  it("gives back exactly the entries it stored: every field, diagnostics, roots, lower-case skill.md, refusals", () => {
    const entries: StoredCandidate[] = [
      entry("/skills/alpha"),
      entry("/skills/alpha-two", { identity: { ...identity, ctimeNs: "1700000000000000001" }, racy: true }),
      entry("/skills/nested/beta", { root: "/skills/nested", sourceId: "npm:pkg" }),
      refusedEntry,
    ];
    // Latin-1 and UTF-16 string tables; views in place and (misaligned memory) copies.
    const unicode = entry("/skills/ünï", {});
    unicode.metadata!.description = "Füllt Formulare aus — 表单 😀";
    for (const list of [entries, [...entries, unicode]])
      for (const offset of [0, 1, 3]) expect(entriesOf(list, { offset }).all()).toEqual(list);
    expect(entriesOf(entries).scanState()).toEqual({ "dir:/skills": { options: "x" } });
  });

  it("serves the folder, file and hash the entry says, whatever its stored metadata claims", () => {
    const columns = encodeSnapshotEntries([entry("/skills/a")], SOURCES);
    columns.metadata[0] = { ...(columns.metadata[0] as object), dir: "/etc", file: "/etc/passwd", hash: "x" };
    const opened = roundTrip(columns);
    if (!opened.ok) throw new Error(opened.problem);
    const { metadata } = opened.entries.entry(0);
    expect([metadata!.dir, metadata!.file, metadata!.hash]).toEqual(["/skills/a", "/skills/a/SKILL.md", hash("a")]);
  });

  it("leaves out an entry whose paths or hash do not have the derived shape (it is read again, never mis-served)", () => {
    const odd = entry("/skills/odd", { file: "/skills/other/SKILL.md" });
    const hashMismatch = entry("/skills/hash");
    hashMismatch.metadata!.hash = hash("b");
    const badHash = entry("/skills/bad", { hash: "A".repeat(64) });
    const decoded = entriesOf([entry("/skills/ok"), odd, hashMismatch, badHash]).all();
    expect(decoded.map((item) => item.dir)).toEqual(["/skills/ok"]);
  });

  it("stores a metadata and diagnostics several entries share once, and hands each entry its own objects", () => {
    const columns = encodeSnapshotEntries([entry("/skills/a"), entry("/skills/b")], SOURCES);
    const packed = packSnapshot(HEADER, columns, {});
    expect(packed.toString("latin1").split('"allowedTools"').length - 1).toBe(1);
    expect(packed.toString("latin1").split('"yaml-invalid"').length - 1).toBe(1);
    const entries = entriesOf([entry("/skills/a"), entry("/skills/b")]);
    const [a, b] = [entries.entry(0).metadata!, entries.entry(1).metadata!];
    expect(a.extra).toEqual(b.extra);
    expect(a.extra).not.toBe(b.extra);
    expect(a.allowedTools).not.toBe(b.allowedTools);
    expect(a.diagnostics[0]!.path).toBe("/skills/a/SKILL.md");
    expect(b.diagnostics[0]!.path).toBe("/skills/b/SKILL.md");
  });

  it("derives mtimeMs from the nanosecond time exactly as a bigint stat gives it", () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One.") });
    const file = join(root, "one/SKILL.md");
    writeFileSync(file, skillMd("one", "Edited."));
    const real = identityFromBigStats(statSync(file, { bigint: true }));
    expect(entriesOf([entry(join(root, "one"), { identity: real })]).entry(0).identity).toEqual(real);
  });

  it("finds entries at the walk's cursor or, out of order, by folder, and serves only an unchanged file", () => {
    const list = ["/skills/a", "/skills/b", "/skills/c"].map((dir) => entry(dir));
    const entries = entriesOf([...list, entry("/skills/b", { sourceId: "npm:pkg" })]);
    expect(entries.indexOf("dir:/skills", "/skills/c", "/skills/c/SKILL.md")).toBe(2);
    expect(entries.indexOf("dir:/skills", "/skills/a", "/skills/a/SKILL.md")).toBe(0);
    expect(entries.indexOf("dir:/skills", "/skills/b", "/skills/b/SKILL.md")).toBe(1);
    expect(entries.indexOf("npm:pkg", "/skills/b", "/skills/b/SKILL.md")).toBe(3);
    expect(entries.indexOf("dir:/skills", "/skills/b", "/skills/b/skill.md")).toBe(-1);
    expect(entries.indexOf("dir:/skills", "/skills/x", "/skills/x/SKILL.md")).toBe(-1);
    expect(entries.indexOf("other", "/skills/a", "/skills/a/SKILL.md")).toBe(-1);
    const found = { dir: "/skills/a", file: "/skills/a/SKILL.md", root: "/skills/a", identity };
    expect(entries.servesUnchanged(0, found)).toBe(true);
    for (const changed of [
      { ...found, root: "/skills" },
      { ...found, identity: { ...identity, ino: 8 } },
      { ...found, identity: { ...identity, size: 43 } },
      { ...found, identity: { ...identity, mtimeNs: "1600000000123456788" } },
      { ...found, identity: { ...identity, ctimeNs: "1600000000123456790" } },
    ])
      expect(entries.servesUnchanged(0, changed)).toBe(false);
  });

  it("marks entries changed after the racy threshold, and those written racy, as not servable by stat", () => {
    const list = [entry("/skills/a"), entry("/skills/b", { racy: true })];
    const found = { dir: "/skills/a", file: "/skills/a/SKILL.md", root: "/skills/a", identity };
    expect(entriesOf(list, { racyAfter: "1600000000123456788" }).servesUnchanged(0, found)).toBe(false);
    expect(entriesOf(list, { racyAfter: "1600000000123456789" }).servesUnchanged(0, found)).toBe(true);
    expect(entriesOf(list, { racyAfter: "-5" }).servesUnchanged(0, found)).toBe(false);
    const later = { ...found, identity: { ...identity, ctimeNs: "1600000000123456790" } };
    const ctimeLater = entriesOf([entry("/skills/a", { identity: later.identity })], {
      racyAfter: "1600000000123456789",
    });
    expect(ctimeLater.servesUnchanged(0, later)).toBe(false);
    expect(entriesOf(list).entry(1).racy).toBe(true);
  });

  it("refuses malformed columns with the entry and field at fault", () => {
    const list = ["/skills/a", "/skills/b", "/skills/c", "/skills/d"].map((dir) => entry(dir));
    const cases: Array<[(value: StoredSnapshotEntries) => void, string]> = [
      [(value) => (value.mtimeNs[1] = "01"), "entry 1: bad 'identity.mtimeNs'"],
      [(value) => (value.ctimeNs[2] = "x"), "entry 2: bad 'identity.ctimeNs'"],
      [(value) => (value.dir[3] = ""), "entry 3: bad 'dir'"],
      [(value) => (value.fileNames = ["a/b"]), "bad 'fileNames'"],
      [(value) => (value.root[0] = 2), "entry 0: bad 'root'"],
      [(value) => (value.source[1] = 2), "entry 1: unknown source"],
      [(value) => (value.fileName[2] = 1), "entry 2: bad 'file'"],
      [(value) => (value.ino[3] = Number.POSITIVE_INFINITY), "entry 3: bad 'identity.ino'"],
      [(value) => (value.hash[1] = ""), "entry 1: bad metadata hash"],
      [
        (value) => (value.metadata[2] = { ...(value.metadata[2] as object), allowedTools: "Bash" }),
        "entry 2: bad metadata allowedTools",
      ],
      [
        (value) => (value.metadata[0] = { ...(value.metadata[0] as object), name: "  " }),
        "entry 0: bad metadata name/description",
      ],
      [(value) => (value.metadata[1] = 0), "entry 1: neither metadata nor refusal"],
      [(value) => (value.diagnostics[0] = [["c", "error", 0, 1, "m", 0, -1]]), "bad 'diagnostics'"],
      // Several bad entries: the first one is named.
      [
        (value) => {
          value.mtimeNs[3] = "";
          value.dir[1] = "";
          value.root[2] = 9;
        },
        "entry 1: bad 'dir'",
      ],
    ];
    for (const [edit, problem] of cases) {
      const columns = encodeSnapshotEntries(list, SOURCES);
      edit(columns);
      expect(roundTrip(columns)).toEqual({ ok: false, problem });
    }
  });

  it("detects a truncated, extended or corrupted file by its sizes, never throwing", () => {
    const payload = encodeSnapshotPayload({
      ...HEADER,
      format: SNAPSHOT_FORMAT,
      entries: [entry("/skills/a"), refusedEntry],
    });
    const check = (bytes: Uint8Array) => checkSnapshotFile(bytes, { settings: SETTINGS, sources: SOURCES });
    expect(check(payload).ok).toBe(true);
    for (let length = 0; length < payload.length; length += 7)
      expect(check(payload.subarray(0, length)).ok, `truncated to ${length}`).toBe(false);
    expect(check(Buffer.concat([payload, Buffer.alloc(8)])).ok).toBe(false);
    // A byte changed anywhere: refused or read (the MAC, checked before, is what catches those), never a throw.
    for (let at = 0; at < payload.length; at++) {
      const flipped = Buffer.from(payload);
      flipped[at]! ^= 0xff;
      expect(() => check(flipped)).not.toThrow();
    }
  });

  it("tells a snapshot of another version or the older JSON layout apart as stale, not corrupt", () => {
    const file: SnapshotFile = { ...HEADER, format: SNAPSHOT_FORMAT, entries: [entry("/skills/a")] };
    const check = (bytes: Uint8Array) => checkSnapshotFile(bytes, { settings: SETTINGS, sources: SOURCES });
    const rejection = (bytes: Uint8Array) => {
      const checked = check(bytes);
      return checked.ok ? undefined : checked.rejection.kind;
    };
    expect(rejection(encodeSnapshotPayload({ ...file, formatVersion: "2+search-index.1" }))).toBe("stale");
    expect(rejection(encodeSnapshotPayload({ ...file, coreVersion: "0.0.0-other" }))).toBe("stale");
    expect(rejection(encodeSnapshotPayload({ ...file, settings: { strict: true, maxBytes: 1024 } }))).toBe("stale");
    expect(rejection(encodeSnapshotPayload({ ...file, sources: ["dir:/other"] }))).toBe("stale");
    expect(rejection(Buffer.from(JSON.stringify({ ...file, formatVersion: "2+search-index.1" })))).toBe("stale");
    expect(rejection(encodeSnapshotPayload({ ...file, format: "other" as typeof SNAPSHOT_FORMAT }))).toBe("corrupt");
    expect(rejection(Buffer.from("\0\0\0\0\0\0\0\0\0\0\0\0"))).toBe("corrupt");
  });
});
