import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signCacheBytes, verifiedCachePayload } from "./cache-key.js";
import { writeTree } from "../../../../test/support/skill-tree.js";
import { createSkillRegistry } from "../registry/create-skill-registry.js";
import { analyzeDocument, SEARCH_INDEX_FORMAT_VERSION } from "../search/indexed-document.js";
import { applyChanges, EMPTY_STATE } from "../search/index-state.js";
import { storedKeyOf } from "../registry/restore-search-index.js";
import type { SkillMetadata } from "../skill/skill-types.js";
import { decodeSearchIndex, encodeSearchIndex } from "./search-index-codec.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { SNAPSHOT_VERSION, type SnapshotFile } from "./snapshot-format.js";
import { readSnapshotWhole, writeSnapshotWhole } from "./__fixtures__/snapshot-files.js";
import { searchIndexFile } from "./snapshot-search-index.js";

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
const readSnapshot = readSnapshotWhole;

/** Rewrites the snapshot as if written an hour after its files changed (no racy entries), editing it on the way. */
function ageSnapshot(path: string, edit: (snapshot: SnapshotFile) => void = () => {}): void {
  const snapshot = readSnapshot(path);
  for (const entry of snapshot.entries) entry.racy = false;
  edit(snapshot);
  writeSnapshotWhole(path, snapshot);
  const later = Date.now() / 1000 + 3600;
  utimesSync(path, later, later);
}

/** The payload of the search-index file beside snapshot `path` (its MAC checked). */
const indexPayload = (path: string) => verifiedCachePayload(readFileSync(searchIndexFile(path)))!;
/** The stored index beside snapshot `path`, decoded. */
const readIndex = (path: string) => decodeSearchIndex(indexPayload(path))!;
/** Whether the stored index beside `path` has `term`. */
const storedHas = (path: string, term: string) => readIndex(path).state.terms.find(term) >= 0;

/**
 * Replaces the search-index file beside snapshot `path` by one analyzed from the skills as the snapshot records them,
 * with `extra` words added to some bodies (only a restored index can know them), keyed like the registry keys them.
 */
function plantIndex(path: string, extra: Record<string, string>, staleDescription: Record<string, string> = {}): void {
  const entries = readSnapshot(path).entries.filter((entry) => entry.metadata);
  const documents = entries.map((entry) => {
    const metadata = entry.metadata as SkillMetadata;
    const [, body] = SKILLS[metadata.name]!;
    const more = extra[metadata.name] ?? "";
    const document = { name: metadata.name, description: metadata.description, path: "" };
    // The field lengths of the real body: only the extra words differ, so the scores of real words do not.
    const { lengths } = analyzeDocument({ ...document, body });
    return { ...analyzeDocument({ ...document, body: `${body} ${more}` }), lengths };
  });
  const state = applyChanges(EMPTY_STATE, [], documents);
  const byName = new Map(entries.map((entry) => [entry.metadata!.name, entry.metadata as SkillMetadata]));
  const bytes = encodeSearchIndex(state, (id) => {
    const name = state.docs.nameOf(id);
    const key = storedKeyOf(byName.get(name)!);
    return { ...key, description: staleDescription[name] ?? key.description };
  });
  writeFileSync(searchIndexFile(path), signCacheBytes(bytes));
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
    expect(readIndex(file).state.count).toBe(Object.keys(SKILLS).length);
    ageSnapshot(file);

    const fresh = await load(root, false);
    const restored = await load(root, file);
    expect(search(restored)).toEqual(search(fresh));
    expect(search(fresh)[0]).not.toEqual([]);

    plantIndex(file, { weather: "zqxmarker" });
    const before = readFileSync(searchIndexFile(file));
    const planted = await load(root, file);
    expect(planted.search("zqxmarker").map((hit) => hit.name)).toEqual(["weather"]);
    await planted.close();
    // Used as it is: not written again.
    expect(readFileSync(searchIndexFile(file)).equals(before)).toBe(true);
  });

  it("re-indexes a changed skill from its file and restores the others", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantIndex(file, { weather: "zqxmarker", "sql-review": "zqxstale" });
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
    expect(storedHas(file, "hypert")).toBe(true);
    expect(storedHas(file, "zqxstale")).toBe(false);
    expect(storedHas(file, "zqxmarker")).toBe(true);
  });

  it("re-indexes a skill whose stored document was analyzed from another name or description (same content hash)", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantIndex(file, { weather: "zqxstale", "git-commit": "zqxmarker" }, { weather: "Another description." });
    const registry = await load(root, file);
    expect(registry.search("zqxstale")).toEqual([]);
    expect(registry.search("zqxmarker").map((hit) => hit.name)).toEqual(["git-commit"]);
    expect(registry.search("forecast city")[0]?.name).toBe("weather");
    await registry.close();
    expect(storedHas(file, "zqxstale")).toBe(false);
    expect(storedHas(file, "zqxmarker")).toBe(true);
  });

  it("stores the analyses of an index built lazily on the first search, off the searching call", async () => {
    const root = tree();
    const file = snapshotPath();
    const registry = await load(root, file);
    expect(existsSync(searchIndexFile(file))).toBe(false);
    registry.search("merge pdf");
    await registry.close();
    expect(readIndex(file).state.count).toBe(Object.keys(SKILLS).length);
  });

  it("ignores a stored index of another snapshot / search-index format", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    expect(readSnapshot(file).formatVersion).toBe(SNAPSHOT_VERSION);
    expect(SNAPSHOT_VERSION).toContain(`search-index.${SEARCH_INDEX_FORMAT_VERSION}`);
    const otherFormat = SNAPSHOT_VERSION.replace(/\d+$/, String(SEARCH_INDEX_FORMAT_VERSION + 1));
    expect(otherFormat.length).toBe(SNAPSHOT_VERSION.length);
    /** The stored index with the marker, its header naming another format (re-signed: only the version is wrong). */
    const plantOtherFormat = () => {
      plantIndex(file, { weather: "zqxmarker" });
      const payload = Buffer.from(indexPayload(file));
      const at = payload.indexOf(`"formatVersion":"${SNAPSHOT_VERSION}"`);
      expect(at).toBeGreaterThan(0);
      payload.write(`"formatVersion":"${otherFormat}"`, at);
      writeFileSync(searchIndexFile(file), signCacheBytes(payload));
    };

    // Both files written by a skillgraph with another index format: stale, with a diagnostic.
    ageSnapshot(file, (snapshot) => (snapshot.formatVersion = otherFormat));
    plantOtherFormat();
    const stale = await load(root, file);
    expect(stale.diagnostics().map((item) => item.code)).toEqual(["registry-snapshot-stale"]);
    expect(stale.search("zqxmarker")).toEqual([]);

    // A valid snapshot beside a search-index file of another format: the index is built from the files.
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantOtherFormat();
    const rebuilt = await load(root, file);
    expect(rebuilt.diagnostics()).toEqual([]);
    expect(rebuilt.search("zqxmarker")).toEqual([]);
  });

  it("rebuilds from the files when the stored index is mis-signed, truncated or corrupt (untrusted input), never crashing", async () => {
    const root = tree();
    const file = snapshotPath();
    await eagerLoad(root, file);
    ageSnapshot(file);
    plantIndex(file, { weather: "zqxmarker" });
    const good = readFileSync(searchIndexFile(file));
    const payload = indexPayload(file);
    const fresh = await load(root, false);
    const expected = search(fresh);
    /** Loads with `bytes` as the search-index file: rankings as a fresh build's, or (a change the MAC covers) no crash. */
    const check = async (bytes: Buffer, what: string, same: boolean) => {
      writeFileSync(searchIndexFile(file), bytes);
      const registry = await load(root, file);
      expect(registry.diagnostics(), what).toEqual([]);
      const results = search(registry);
      if (same) {
        expect(results, what).toEqual(expected);
        expect(registry.search("zqxmarker"), what).toEqual([]);
      }
      await registry.close();
    };
    const flipped = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x5a;
      return copy;
    };
    // Not signed by this user's skillgraph: a flipped byte anywhere (MAC line or payload), a cut anywhere.
    for (const at of [0, 20, 79, 80, 100, good.length >> 1, good.length - 1])
      await check(flipped(good, at), `flipped byte ${at}`, true);
    for (const length of [0, 10, 80, 200, good.length >> 1, good.length - 1])
      await check(good.subarray(0, length), `truncated to ${length}`, true);
    // Signed but malformed (a writer's bug): truncated or extended, refused by the decoder and rebuilt.
    for (const length of [4, 100, payload.length >> 1, payload.length - 1])
      await check(signCacheBytes(payload.subarray(0, length)), `signed, truncated to ${length}`, true);
    await check(signCacheBytes(Buffer.concat([payload, Buffer.alloc(4)])), "signed, extended", true);
    // Signed with bytes flipped all over: refused or (a flip the decoder cannot tell, e.g. a frequency) served, never a crash.
    for (let at = 4; at < payload.length; at += Math.max(1, Math.floor(payload.length / 97)))
      await check(signCacheBytes(flipped(payload, at)), `signed, flipped byte ${at}`, false);
    writeFileSync(searchIndexFile(file), signCacheBytes(Buffer.from("{ not json")));
    expect(search(await load(root, file))).toEqual(expected);
  });
});
