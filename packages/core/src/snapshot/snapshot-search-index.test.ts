import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signCacheText } from "./cache-key.js";

/** A cache file's JSON text, without the MAC line this user's skillgraph signs it with. */
const unsigned = (text: string) => text.slice(text.indexOf("{"));
import { writeTree } from "../../../../test/support/skill-tree.js";
import { createSkillRegistry } from "../registry/create-skill-registry.js";
import { analyzeDocument, SEARCH_INDEX_FORMAT_VERSION } from "../search/indexed-document.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { encodeSnapshotEntries } from "./snapshot-entries-codec.js";
import { checkSnapshotFile, SNAPSHOT_VERSION, type SnapshotFile } from "./snapshot-format.js";
import {
  analysisKey,
  restoreSearchAnalysis,
  searchIndexFile,
  storeSearchAnalysis,
  type StoredSearchAnalysis,
} from "./snapshot-search-index.js";

const FIXED_MTIME = 1_600_000_000;

const SKILLS: Record<string, [string, string]> = {
  "pdf-tools": [
    "Fill, merge and split PDF files.",
    "# PDF\n\nUse pypdf to merge pages.\n\n## Forms\nFill form fields.",
  ],
  "git-commit": ["Write conventional commit messages.", "# Commit\n\nStage changes, then `git commit -m`."],
  weather: ["Report the weather forecast for a city.", "# Weather\n\nCall the forecast API for the city."],
  "sql-review": ["Review SQL queries for performance.", "# SQL\n\nLook for missing indexes and full scans."],
  "slide-deck": ["Build a slide deck from an outline.", "# Slides\n\nOne idea per slide, merge short ones."],
};
const QUERIES = ["merge pdf pages", "commit my changes", "forecast for paris", "slow sql query", "slides", "merge"];

function skillFile(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

function tree(): string {
  const files = Object.fromEntries(
    Object.entries(SKILLS).map(([name, [description, body]]) => [
      `${name}/SKILL.md`,
      skillFile(name, description, body),
    ]),
  );
  const root = writeTree(files, "skillgraph-snapindex-");
  for (const path of Object.keys(files)) utimesSync(join(root, path), FIXED_MTIME, FIXED_MTIME);
  return root;
}

const snapshotPath = () => join(mkdtempSync(join(tmpdir(), "skillgraph-snapindex-file-")), "registry.json");
/** The snapshot file decoded (one object per entry), as the registry reads it, whatever its format version. */
function readSnapshot(path: string): SnapshotFile {
  const stored = JSON.parse(unsigned(readFileSync(path, "utf8"))) as SnapshotFile;
  const checked = checkSnapshotFile(
    { ...stored, formatVersion: SNAPSHOT_VERSION },
    { settings: stored.settings, sources: stored.sources },
  );
  if (!checked.ok) throw new Error(checked.rejection.message);
  return { ...checked.snapshot, formatVersion: stored.formatVersion };
}

/** Rewrites the snapshot as if written an hour after its files changed (no racy entries), editing it on the way. */
function ageSnapshot(path: string, edit: (snapshot: SnapshotFile) => void = () => {}): void {
  const snapshot = readSnapshot(path);
  for (const entry of snapshot.entries) entry.racy = false;
  edit(snapshot);
  writeFileSync(
    path,
    signCacheText(JSON.stringify({ ...snapshot, entries: encodeSnapshotEntries(snapshot.entries, snapshot.sources) })),
  );
  const later = Date.now() / 1000 + 3600;
  utimesSync(path, later, later);
}

interface SearchIndexFile {
  formatVersion: string;
  entries: Record<string, StoredSearchAnalysis>;
}
const readIndex = (path: string) =>
  JSON.parse(unsigned(readFileSync(searchIndexFile(path), "utf8"))) as SearchIndexFile;

/** Edits the search-index file beside snapshot `path`. */
function editIndex(path: string, edit: (file: SearchIndexFile, keyOf: (skill: string) => string) => void): void {
  const snapshot = readSnapshot(path);
  const keyOf = (skill: string) =>
    analysisKey(snapshot.entries.find((entry) => entry.metadata?.name === skill)!.metadata!);
  const file = readIndex(path);
  edit(file, keyOf);
  writeFileSync(searchIndexFile(path), signCacheText(JSON.stringify(file)));
}

/** Adds the term `marker` (once in the body) to one skill's stored analysis: only a restored index can know it. */
function plantMarker(path: string, skill: string, marker: string): void {
  editIndex(path, (file, keyOf) => {
    const stored = file.entries[keyOf(skill)]!;
    const packed = Buffer.concat([Buffer.from(stored.packed, "base64"), Buffer.alloc(4)]);
    packed.writeUInt32LE(1 << 18, packed.length - 4);
    file.entries[keyOf(skill)] = { ...stored, terms: `${stored.terms} ${marker}`, packed: packed.toString("base64") };
  });
}

const eagerLoad = async (root: string, file: string) =>
  (await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file, searchIndex: "eager" })).close();
const load = (root: string, snapshot: string | false) =>
  createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot });

const search = (registry: { search: (query: string, options?: { limit?: number }) => unknown[] }) =>
  QUERIES.map((query) => registry.search(query, { limit: 20 }));

describe("search index beside the registry snapshot", () => {
  it("restores the index of unchanged skills (ranking exactly like a fresh build) instead of re-tokenizing", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    expect(Object.keys(readIndex(file).entries)).toHaveLength(Object.keys(SKILLS).length);
    ageSnapshot(file);

    const fresh = await load(root, false);
    const restored = await load(root, file);
    expect(search(restored)).toEqual(search(fresh));
    expect(search(fresh)[0]).not.toEqual([]);

    plantMarker(file, "weather", "zqxmarker");
    const planted = await load(root, file);
    expect(planted.search("zqxmarker").map((hit) => hit.name)).toEqual(["weather"]);
  });

  it("re-indexes a changed skill from its file and restores the others", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantMarker(file, "weather", "zqxmarker");
    plantMarker(file, "sql-review", "zqxstale");
    writeFileSync(
      join(root, "sql-review/SKILL.md"),
      skillFile(
        "sql-review",
        "Review SQL queries for performance.",
        "# SQL\n\nCheck the execution plan of a hypertable.",
      ),
    );

    const registry = await load(root, file);
    expect(registry.search("hypertable").map((hit) => hit.name)).toEqual(["sql-review"]);
    expect(registry.search("zqxstale")).toEqual([]);
    expect(registry.search("zqxmarker").map((hit) => hit.name)).toEqual(["weather"]);
    const fresh = await load(root, false);
    expect(registry.search("indexes plan", { limit: 20 })).toEqual(fresh.search("indexes plan", { limit: 20 }));
    // The search-index file now holds the new analysis of the edited skill (written off the searching call).
    await registry.close();
    editIndex(file, (index, keyOf) => expect(index.entries[keyOf("sql-review")]!.terms.split(" ")).toContain("hypert"));
  });

  it("stores the analyses of an index built lazily on the first search, off the searching call", async () => {
    const root = tree();
    const file = snapshotPath();
    const registry = await load(root, file);
    expect(existsSync(searchIndexFile(file))).toBe(false);
    registry.search("merge pdf");
    await registry.close();
    expect(Object.keys(readIndex(file).entries)).toHaveLength(Object.keys(SKILLS).length);
  });

  it("ignores stored analyses of another snapshot / search-index format", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    expect(readSnapshot(file).formatVersion).toBe(SNAPSHOT_VERSION);
    expect(SNAPSHOT_VERSION).toContain(`search-index.${SEARCH_INDEX_FORMAT_VERSION}`);
    plantMarker(file, "weather", "zqxmarker");
    const otherFormat = SNAPSHOT_VERSION.replace(/\d+$/, String(SEARCH_INDEX_FORMAT_VERSION + 1));

    // Both files written by a skillgraph with another index format: stale, with a diagnostic.
    ageSnapshot(file, (snapshot) => (snapshot.formatVersion = otherFormat));
    editIndex(file, (index) => (index.formatVersion = otherFormat));
    const stale = await load(root, file);
    expect(stale.diagnostics().map((item) => item.code)).toEqual(["registry-snapshot-stale"]);
    expect(stale.search("zqxmarker")).toEqual([]);

    // A valid snapshot beside a search-index file of another format: the index is built from the files.
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantMarker(file, "weather", "zqxmarker");
    editIndex(file, (index) => (index.formatVersion = otherFormat));
    const rebuilt = await load(root, file);
    expect(rebuilt.diagnostics()).toEqual([]);
    expect(rebuilt.search("zqxmarker")).toEqual([]);
  });

  it("re-indexes from the files when stored analyses are malformed (untrusted input), never crashing", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    ageSnapshot(file);
    editIndex(file, (index, keyOf) => {
      const entry = (skill: string) => index.entries[keyOf(skill)]!;
      index.entries[keyOf("pdf-tools")] = { ...entry("pdf-tools"), packed: "!!not base64" };
      index.entries[keyOf("weather")] = { ...entry("weather"), lengths: [1, 2] };
      index.entries[keyOf("git-commit")] = { ...entry("git-commit"), terms: `${entry("git-commit").terms} extra` };
      (index.entries as Record<string, unknown>)[keyOf("slide-deck")] = "junk";
    });
    const fresh = await load(root, false);
    const registry = await load(root, file);
    expect(registry.diagnostics()).toEqual([]);
    expect(search(registry)).toEqual(search(fresh));

    writeFileSync(searchIndexFile(file), signCacheText("{ not json"));
    expect(search(await load(root, file))).toEqual(search(fresh));
  });
});

describe("storeSearchAnalysis / restoreSearchAnalysis", () => {
  const document = analyzeDocument({
    name: "pdf-tools",
    description: "Fill PDF forms",
    body: "# PDF\n\nMerge 写周报 pages, merge again.",
    path: "/s/pdf-tools/SKILL.md",
  });
  const meta = { name: document.name, description: document.description, path: document.path };

  it("round-trips an analysis exactly", () => {
    const restored = restoreSearchAnalysis(JSON.parse(JSON.stringify(storeSearchAnalysis(document))), meta)!;
    expect({ ...restored, scratch: undefined }).toEqual({ ...document, scratch: undefined });
  });

  it("refuses malformed input", () => {
    const stored = storeSearchAnalysis(document);
    const bad: unknown[] = [
      null,
      "x",
      { ...stored, lengths: [1, 2, 3, -1] },
      { ...stored, lengths: [1, 2, 3, 1.5] },
      { ...stored, terms: `${stored.terms} ${stored.terms.split(" ")[0]}` },
      { ...stored, terms: `${stored.terms}  x` },
      { ...stored, packed: stored.packed.slice(0, -4) },
      { ...stored, packed: Buffer.alloc(Buffer.from(stored.packed, "base64").length).toString("base64") },
      { ...stored, terms: 3 },
    ];
    for (const value of bad) expect(restoreSearchAnalysis(value as StoredSearchAnalysis, meta)).toBeUndefined();
  });
});
