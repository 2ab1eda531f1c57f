import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signCacheBytes } from "./cache-key.js";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { createSkillRegistry } from "../registry/create-skill-registry.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { buildRegistrySnapshot } from "../registry/build-registry-snapshot.js";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { defaultSnapshotFile, defaultSnapshotFolder } from "./snapshot-location.js";
import type { SnapshotFile } from "./snapshot-format.js";
import { RACY_WINDOW_NS } from "../sources/racy-window.js";
import { changedAfter, racyThreshold } from "./snapshot-file.js";
import { encodeSnapshotEntries, type StoredSnapshotEntries } from "./snapshot-entries-codec.js";
import { packSnapshot } from "./snapshot-binary.js";
import { readSnapshotWhole, unsignedPayload, writeSnapshotWhole } from "./__fixtures__/snapshot-files.js";

/** A fixed mtime (seconds) given to every SKILL.md, so a test can restore it exactly after an edit. */
const FIXED_MTIME = 1_600_000_000;

function tree(files: Record<string, string>): string {
  const root = writeTree(files, "skillgraph-snapshot-");
  for (const path of Object.keys(files)) utimesSync(join(root, path), FIXED_MTIME, FIXED_MTIME);
  return root;
}

function snapshotPath(): string {
  return join(mkdtempSync(join(tmpdir(), "skillgraph-snapfile-")), "registry.json");
}

/** The snapshot file decoded (one object per entry), as the registry reads it. */
const readSnapshot = readSnapshotWhole;
const writeSnapshot = (path: string, snapshot: SnapshotFile) => writeSnapshotWhole(path, snapshot);

/**
 * Makes a snapshot look as if written long after its files last changed (outside the racy window): entries are no
 * longer flagged for verification and the file's mtime is an hour ahead. Optionally edits entries on the way, which
 * lets a test see whether an entry was served from the snapshot (the edited value) or re-read (the file's value).
 */
function ageSnapshot(path: string, edit: (snapshot: SnapshotFile) => void = () => {}): void {
  const snapshot = readSnapshot(path);
  for (const entry of snapshot.entries) entry.racy = false;
  edit(snapshot);
  writeSnapshot(path, snapshot);
  const later = Date.now() / 1000 + 3600;
  utimesSync(path, later, later);
}

function markDescriptions(snapshot: SnapshotFile): void {
  for (const entry of snapshot.entries)
    if (entry.metadata) entry.metadata.description = `SNAPSHOT ${entry.metadata.name}`;
}

const load = (root: string, snapshot: string | false) =>
  createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot });

describe("registry snapshot file", () => {
  it("serves unchanged skills from the snapshot without reading them", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One."), "two/SKILL.md": skillMd("two", "Two.") });
    const file = snapshotPath();
    const first = await load(root, file);
    expect(first.diagnostics()).toEqual([]);
    expect(readSnapshot(file).entries).toHaveLength(2);
    ageSnapshot(file, markDescriptions);

    const second = await load(root, file);
    expect(second.get("one")?.description).toBe("SNAPSHOT one");
    expect(second.get("one")?.origin).toEqual({ sourceId: `dir:${root}`, layer: "explicit", kind: "directory" });
    // The body is still read from the file on demand.
    expect(await second.readBody("two")).toContain("Instructions for two.");
  });

  it("serves entries lazily: the same metadata as a load from the files, each skill its own objects, made on first use", async () => {
    const withExtra = (name: string) =>
      `---\nname: ${name}\ndescription: Fills ${name} forms.\nlicense: MIT\nmetadata:\n  author: me\nallowed-tools: Read Bash\nodd: [1, 2]\n---\nBody of ${name}.\n`;
    const root = tree({ "a-pdf/SKILL.md": withExtra("a-pdf"), "b-pdf/SKILL.md": withExtra("b-pdf") });
    const file = snapshotPath();
    await (await load(root, file)).close();
    ageSnapshot(file);
    const fromFiles = await load(root, false);
    const served = await load(root, file);
    // Before anything is listed: the catalog and the search index use the stored names and descriptions.
    expect(served.has("a-pdf")).toBe(true);
    expect(served.search("fills b-pdf forms", { limit: 1 }).map((hit) => hit.name)).toEqual(["b-pdf"]);
    expect(served.list()).toEqual(fromFiles.list());
    // The key order a served metadata has always had: the stored fields, then what the entry and the source say.
    expect(Object.keys(served.get("b-pdf")!)).toEqual([
      ...["name", "description", "allowedTools", "extra", "license", "metadata"],
      ...["dir", "file", "hash", "diagnostics", "origin"],
    ]);
    expect(served.list()).toBe(served.list());
    const [a, b] = served.list();
    expect(served.get("a-pdf")).toBe(a);
    expect(a!.metadata).toEqual(b!.metadata);
    expect(a!.metadata).not.toBe(b!.metadata);
    expect(a!.allowedTools).not.toBe(b!.allowedTools);
    expect(a!.diagnostics.length).toBeGreaterThan(0);
    expect(a!.diagnostics.map((d) => d.path)).toEqual(fromFiles.get("a-pdf")!.diagnostics.map((d) => d.path));
  });

  it("re-reads a file edited in the same mtime tick with the same size (ctime differs)", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "Original.") });
    const file = snapshotPath();
    const path = join(root, "one/SKILL.md");
    const recorded = statSync(path, { bigint: true }).ctimeNs;
    await load(root, file);
    ageSnapshot(file);
    writeFileSync(path, skillMd("one", "Replaced."));
    utimesSync(path, FIXED_MTIME, FIXED_MTIME);
    // The change is only visible in ctime: on a file system with a coarse clock the edit can fall in the tick the
    // snapshot recorded, so touch the file until its ctime moves (bounded by time, and said if it never does).
    const deadline = Date.now() + 5_000;
    while (statSync(path, { bigint: true }).ctimeNs === recorded && Date.now() < deadline)
      utimesSync(path, FIXED_MTIME, FIXED_MTIME);
    expect(statSync(path, { bigint: true }).ctimeNs, "the file's ctime did not move within 5 s").not.toBe(recorded);
    expect(statSync(path, { bigint: true }).mtimeNs).toBe(BigInt(FIXED_MTIME) * 1_000_000_000n);

    const registry = await load(root, file);
    expect(registry.get("one")?.description).toBe("Replaced.");
  });

  it("verifies by content hash an entry recorded within the racy window, even when every stat field matches", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "Real.") });
    const file = snapshotPath();
    await load(root, file);
    // Simulate a snapshot that recorded the file's previous content in the same tick: stat identical, bytes not, and
    // the entry flagged racy as the load flags one recorded within the window (set here: how long the load took after
    // the file was written is the machine's business; the flag's arithmetic has a property test below).
    const snapshot = readSnapshot(file);
    snapshot.entries[0]!.racy = true;
    snapshot.entries[0]!.metadata!.description = "Stale.";
    snapshot.entries[0]!.hash = "0".repeat(64);
    snapshot.entries[0]!.metadata!.hash = "0".repeat(64);
    writeSnapshot(file, snapshot);

    const registry = await load(root, file);
    expect(registry.get("one")?.description).toBe("Real.");
  });

  it("re-reads a file replaced by rename (new inode), same size and mtime", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "Before.") });
    const file = snapshotPath();
    await load(root, file);
    ageSnapshot(file);
    const temp = join(root, "one/SKILL.md.new");
    writeFileSync(temp, skillMd("one", "After!."));
    utimesSync(temp, FIXED_MTIME, FIXED_MTIME);
    renameSync(temp, join(root, "one/SKILL.md"));

    const registry = await load(root, file);
    expect(registry.get("one")?.description).toBe("After!.");
  });

  it("drops a deleted folder and picks up a new one", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One."), "two/SKILL.md": skillMd("two", "Two.") });
    const file = snapshotPath();
    await load(root, file);
    ageSnapshot(file, markDescriptions);
    rmSync(join(root, "two"), { recursive: true });
    mkdirSync(join(root, "three"));
    writeFileSync(join(root, "three/SKILL.md"), skillMd("three", "Three."));

    const registry = await load(root, file);
    expect(registry.list().map((skill) => [skill.name, skill.description])).toEqual([
      ["one", "SNAPSHOT one"],
      ["three", "Three."],
    ]);
    // The snapshot was rewritten without the deleted skill.
    expect(
      readSnapshot(file)
        .entries.map((entry) => entry.metadata?.name)
        .sort(),
    ).toEqual(["one", "three"]);
  });

  it("picks up a skill folder created inside a skill folder the snapshot listed (the folder's stat changed)", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One.") });
    const file = snapshotPath();
    await load(root, file);
    ageSnapshot(file, markDescriptions);
    mkdirSync(join(root, "one/inner"));
    writeFileSync(join(root, "one/inner/SKILL.md"), skillMd("inner", "Inner."));

    const registry = await load(root, file);
    expect(registry.list().map((skill) => [skill.name, skill.description])).toEqual([
      ["inner", "Inner."],
      ["one", "SNAPSHOT one"],
    ]);
  });

  it("keeps the entries of two sources that find the same SKILL.md apart, and re-reads it for both once edited", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "Original.") });
    const file = snapshotPath();
    // The parent folder and the skill folder itself: both sources find one/SKILL.md.
    const sources = () => [skillsFromDirectory(root), skillsFromDirectory(join(root, "one"))];
    const first = await createSkillRegistry({ sources: sources(), snapshot: file });
    expect(first.shadowed()).toHaveLength(1);
    expect(
      readSnapshot(file)
        .entries.map((entry) => entry.sourceId)
        .sort(),
    ).toEqual([`dir:${root}`, `dir:${join(root, "one")}`].sort());
    ageSnapshot(file, (snapshot) => {
      for (const entry of snapshot.entries) entry.metadata!.description = `SNAPSHOT ${entry.sourceId}`;
    });

    const served = await createSkillRegistry({ sources: sources(), snapshot: file });
    expect(served.get("one")?.description).toBe(`SNAPSHOT ${served.get("one")!.origin.sourceId}`);
    expect((await served.reload()).reread).toBe(0);

    const path = join(root, "one/SKILL.md");
    writeFileSync(path, skillMd("one", "Edited!!."));
    utimesSync(path, FIXED_MTIME, FIXED_MTIME);
    const edited = await createSkillRegistry({ sources: sources(), snapshot: file });
    expect(edited.get("one")?.description).toBe("Edited!!.");
    const report = await edited.reload();
    expect(report.fromSnapshot).toBe(0);
    expect(readSnapshot(file).entries.map((entry) => entry.metadata?.description)).toEqual(["Edited!!.", "Edited!!."]);
  });

  it("stores non-Latin-1 text and serves it back unchanged", async () => {
    const description = "Füllt Formulare aus — 表单, émojis 😀 and a lone \\ backslash.";
    const root = tree({ "one/SKILL.md": skillMd("one", description) });
    const file = snapshotPath();
    const fresh = await load(root, file);
    expect(readSnapshot(file).entries[0]!.metadata!.description).toBe(description);
    ageSnapshot(file, (snapshot) => (snapshot.entries[0]!.metadata!.description = `SNAPSHOT ${description}`));
    const served = await load(root, file);
    expect(served.get("one")).toEqual({ ...fresh.get("one"), description: `SNAPSHOT ${description}` });
  });

  it("ignores a snapshot from another version of skillgraph, with a diagnostic", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One.") });
    const file = snapshotPath();
    await load(root, file);
    ageSnapshot(file, (snapshot) => {
      markDescriptions(snapshot);
      snapshot.coreVersion = "0.0.0-other";
    });
    const registry = await load(root, file);
    expect(registry.get("one")?.description).toBe("One.");
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual(["registry-snapshot-stale"]);
    // Rewritten for this version: the next load has no complaint.
    expect((await load(root, file)).diagnostics()).toEqual([]);
  });

  it("ignores a snapshot written for another root (a copied tree with the same stats)", async () => {
    const rootA = tree({ "one/SKILL.md": skillMd("one", "In A.") });
    const rootB = join(mkdtempSync(join(tmpdir(), "skillgraph-snapshot-b-")), "copy");
    cpSync(rootA, rootB, { recursive: true, preserveTimestamps: true });
    writeFileSync(join(rootB, "one/SKILL.md"), skillMd("one", "In B."));
    const file = snapshotPath();
    await load(rootA, file);
    ageSnapshot(file, markDescriptions);

    const registry = await load(rootB, file);
    expect(registry.get("one")?.description).toBe("In B.");
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual(["registry-snapshot-stale"]);
  });

  it("treats a corrupt or malformed snapshot as absent, with a diagnostic, never a crash", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One.") });
    const file = snapshotPath();
    await load(root, file);
    const valid = readSnapshot(file);
    const { entries: _entries, scanState, ...header } = valid;
    const payload = unsignedPayload(readFileSync(file));
    // Columns edited before they are packed: what a buggy writer or a hand edit could put in a well-sized file.
    const withEntries = (edit: (entries: StoredSnapshotEntries) => void) => {
      const columns = encodeSnapshotEntries(valid.entries, valid.sources);
      edit(columns);
      return packSnapshot(header, columns, scanState ?? {});
    };
    const metadata = (entries: StoredSnapshotEntries) => entries.metadata[0] as Record<string, unknown>;
    const variants: Array<string | Buffer> = [
      "{ truncated",
      "null",
      "[]",
      // The older JSON layout with this version's header: not read as one.
      JSON.stringify({ ...header, entries: [] }),
      // Truncated, grown, a header that does not parse.
      payload.subarray(0, payload.length - 1),
      payload.subarray(0, 20),
      Buffer.concat([payload, Buffer.from([0])]),
      Buffer.concat([payload.subarray(0, 12), Buffer.from("{{"), payload.subarray(14)]),
      withEntries((entries) => (metadata(entries).name = 5)),
      withEntries((entries) => (metadata(entries).name = " \t")),
      withEntries((entries) => (entries.mtimeNs[0] = "1e9")),
      withEntries((entries) => (entries.mtimeNs[0] = "0123")),
      withEntries((entries) => (entries.ctimeNs[0] = "-1")),
      // Paths that could point elsewhere: a file name with a separator, an empty folder, a root out of range.
      withEntries((entries) => (entries.fileNames = ["../../etc/passwd"])),
      withEntries((entries) => (entries.dir[0] = "")),
      withEntries((entries) => (entries.root[0] = 1)),
      // (A stored metadata's own file or folder is never read: the entry's are set over it, see snapshot-binary.test.ts.)
      withEntries((entries) => (entries.source[0] = 1)),
      withEntries((entries) => (entries.size[0] = Number.NaN)),
      withEntries((entries) => (entries.hash[0] = "")),
      withEntries((entries) => (entries.diagnostics[0] = [[1, "error", 0, 1, ": x"]] as never)),
      withEntries((entries) => (entries.refused[0] = [["code", "fatal", 0, 1, ": x"]] as never)),
      withEntries((entries) => (entries.metadata[0] = 0)),
      withEntries((entries) => (entries.count = 2)),
      withEntries((entries) => (metadata(entries).dependencies = { bins: "x" })),
    ];
    for (const variant of variants) {
      // signed as this user's skillgraph would: what is checked here is the content
      writeFileSync(file, signCacheBytes(typeof variant === "string" ? Buffer.from(variant) : variant));
      const registry = await load(root, file);
      expect(registry.get("one")?.description).toBe("One.");
      // What starts like a JSON object is the older layout: stale, rebuilt like a corrupt one.
      const older = typeof variant === "string" && variant.startsWith("{");
      const expected = older ? "registry-snapshot-stale" : "registry-snapshot-invalid";
      expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual([expected]);
    }
    // A folder where the snapshot file should be: still loads.
    rmSync(file);
    mkdirSync(file);
    const registry = await load(root, file);
    expect(registry.get("one")?.description).toBe("One.");
  });

  it("checks the snapshot, watch and embeddings options once, in the factory", async () => {
    const sources = [skillsFromDirectory(tree({ "one/SKILL.md": skillMd("one", "One.") }))];
    for (const options of [
      { snapshot: 5 },
      { snapshot: "" },
      { watch: { debounceMs: -1 } },
      { watch: "yes" },
      { embeddings: { embedQuery: () => [] } },
    ]) {
      await expect(createSkillRegistry({ sources, ...(options as object) })).rejects.toSatisfy((error) =>
        InvalidOptionsError.isInstance(error),
      );
    }
  });

  it("is not written with snapshot: false", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One.") });
    const registry = await load(root, false);
    expect(registry.list()).toHaveLength(1);
    expect(() => statSync(defaultSnapshotFile([`dir:${root}`], join(root, "none")))).toThrow();
  });

  it("defaults to node_modules/.cache/skillgraph, else the XDG cache folder", () => {
    const project = writeTree({ "package.json": "{}", "node_modules/.keep": "", "src/app/x.txt": "" });
    expect(defaultSnapshotFolder(join(project, "src/app"))).toBe(join(project, "node_modules/.cache/skillgraph"));
    const bare = mkdtempSync("/tmp/skillgraph-no-modules-");
    expect(defaultSnapshotFolder(bare, { XDG_CACHE_HOME: "/var/cache/me" })).toBe("/var/cache/me/skillgraph");
    expect(defaultSnapshotFile(["dir:/b", "dir:/a"], "/c")).toBe(defaultSnapshotFile(["dir:/a", "dir:/b"], "/c"));
  });

  it("buildRegistrySnapshot writes a shippable snapshot: copied files are checked by hash, not parsed again", async () => {
    const root = tree({ "one/SKILL.md": skillMd("one", "One."), "two/SKILL.md": skillMd("two", "Two.") });
    const out = snapshotPath();
    const built = await buildRegistrySnapshot({ sources: [skillsFromDirectory(root)], out });
    expect(built).toMatchObject({ file: out, skills: 2, diagnostics: [] });
    ageSnapshot(out, markDescriptions);
    // "Deploy": every file rewritten with the same bytes (new inode and times, as a COPY into an image gives).
    for (const name of ["one", "two"]) {
      const path = join(root, name, "SKILL.md");
      const bytes = readFileSync(path);
      rmSync(path);
      writeFileSync(path, bytes);
    }
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: out });
    // Served from the snapshot (the marked descriptions) after a hash check.
    expect(registry.get("one")?.description).toBe("SNAPSHOT one");
    const report = await registry.reload();
    expect(report.reread).toBe(0);
  });
});

describe("racy rule on decimal strings", () => {
  it("changedAfter(racyThreshold(t)) is exactly t - max(mtime, ctime) < RACY_WINDOW_NS", () => {
    const ns = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 20n }),
      fc.bigInt({ min: 1_700_000_000_000_000_000n, max: 1_700_000_010_000_000_000n }),
      fc.constantFrom(0n, 1n, 1_999_999_999n, 2_000_000_000n, 2_000_000_001n),
    );
    fc.assert(
      fc.property(ns, ns, ns, (mtime, ctime, written) => {
        const expected = written - (mtime > ctime ? mtime : ctime) < RACY_WINDOW_NS;
        return changedAfter({ mtimeNs: `${mtime}`, ctimeNs: `${ctime}` }, racyThreshold(written)) === expected;
      }),
      { numRuns: 5000 },
    );
    // At the edges: exactly the window before is no longer racy, one nanosecond later is.
    const written = 1_700_000_005_000_000_000n;
    const at = (changed: bigint) => changedAfter({ mtimeNs: `${changed}`, ctimeNs: "0" }, racyThreshold(written));
    expect(at(written - RACY_WINDOW_NS)).toBe(false);
    expect(at(written - RACY_WINDOW_NS + 1n)).toBe(true);
  });
});
