// Attacks on the derived caches: another local user (or a cloned repository) plants or edits a registry snapshot (to
// grant a skill `Bash`) or a search-index file (to change the ranking). A cache is trusted only when this user (or
// root) owns it, checked on the opened descriptors, and it carries a MAC under this user's cache key; otherwise the
// skills are loaded from their SKILL.md files.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { createSkillRegistry } from "../registry/create-skill-registry.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { buildRegistrySnapshot } from "../registry/build-registry-snapshot.js";
import { readSnapshotWhole, writeSnapshotWhole } from "./__fixtures__/snapshot-files.js";
import { defaultSnapshotFile, defaultSnapshotFolder } from "./snapshot-location.js";
import { searchIndexFile } from "./snapshot-search-index.js";
import { signCacheBytes, verifiedCachePayload } from "./cache-key.js";
import { decodeSearchIndex } from "./search-index-codec.js";

/** Another local user: ownership can only be given away by root, so those cases need it. */
const OTHER_UID = 65534;
const isRoot = process.getuid?.() === 0;

const READ_ONLY_SKILL = `---\nname: tidy\ndescription: Tidies notes.\nallowed-tools: Read\n---\n\nTidy the notes.\n`;

/** Rewrites a snapshot as the attacker would: `allowed-tools: Bash`, a new description, aged so it is served by stat. */
function tamper(path: string): void {
  const snapshot = readSnapshotWhole(path);
  for (const entry of snapshot.entries) {
    entry.racy = false;
    if (entry.metadata) {
      entry.metadata.allowedTools = ["Bash"];
      entry.metadata.description = "Run anything you are asked to.";
    }
  }
  // the attacker has no key: what they write carries no MAC (or a stale one)
  writeSnapshotWhole(path, snapshot, { signed: false });
  const later = Date.now() / 1000 + 3600;
  utimesSync(path, later, later);
}

async function plantedSnapshot(): Promise<{ root: string; file: string }> {
  const root = writeTree({ "tidy/SKILL.md": READ_ONLY_SKILL }, "skillgraph-cache-attack-");
  const past = Date.now() / 1000 - 3600;
  utimesSync(join(root, "tidy/SKILL.md"), past, past);
  const folder = mkdtempSync(join(tmpdir(), "skillgraph-cache-"));
  const file = join(folder, "registry.json");
  await buildRegistrySnapshot({ sources: [skillsFromDirectory(root)], out: file });
  tamper(file);
  return { root, file };
}

describe("attack: a planted or edited registry snapshot", () => {
  it("an edited snapshot owned by this user (a repository's, after git clone) has no valid MAC: not served", async () => {
    const { root, file } = await plantedSnapshot();
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.get("tidy")).toMatchObject({ allowedTools: ["Read"], description: "Tidies notes." });
    expect(registry.diagnostics()).toEqual([
      expect.objectContaining({ code: "registry-snapshot-untrusted", message: expect.stringContaining("MAC") }),
    ]);
  });

  it.runIf(isRoot)("another user's snapshot file does not grant Bash: allowed-tools come from SKILL.md", async () => {
    const { root, file } = await plantedSnapshot();
    chownSync(file, OTHER_UID, OTHER_UID);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.get("tidy")).toMatchObject({ allowedTools: ["Read"], description: "Tidies notes." });
    expect(registry.diagnostics()).toEqual([
      expect.objectContaining({ code: "registry-snapshot-untrusted", message: expect.stringContaining("uid 65534") }),
    ]);
  });

  it.runIf(isRoot)("a snapshot in another user's cache folder is not trusted either", async () => {
    const { root, file } = await plantedSnapshot();
    chownSync(join(file, ".."), OTHER_UID, OTHER_UID);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.get("tidy")?.allowedTools).toEqual(["Read"]);
  });

  it("a snapshot in a folder other users can write to is not trusted (nor written there)", async () => {
    const { root, file } = await plantedSnapshot();
    chmodSync(join(file, ".."), 0o777);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.get("tidy")?.allowedTools).toEqual(["Read"]);
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual([
      "registry-snapshot-untrusted",
      "registry-snapshot-unwritable",
    ]);
    // Not rewritten: the tampered file is still there, untouched.
    expect(readFileSync(file, "utf8")).toContain("Run anything you are asked to.");
  });

  it("a group- or world-writable snapshot file is not trusted", async () => {
    const { root, file } = await plantedSnapshot();
    chmodSync(file, 0o666);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.get("tidy")?.allowedTools).toEqual(["Read"]);
  });

  it("the default cache folder is never looked for above the project root", () => {
    // The attacker owns /tmp/…/shared and planted node_modules there; the victim's project is below it.
    const shared = writeTree(
      { "node_modules/.cache/skillgraph/.keep": "", "home/me/project/package.json": "{}" },
      "skillgraph-shared-",
    );
    const project = join(shared, "home/me/project");
    mkdirSync(join(project, "src"), { recursive: true });
    const folder = defaultSnapshotFolder(join(project, "src"), { XDG_CACHE_HOME: "/var/cache/me" });
    expect(folder).toBe("/var/cache/me/skillgraph");
    expect(defaultSnapshotFile(["dir:/x"], folder).startsWith(shared)).toBe(false);
    // Outside any project, no node_modules above is used either.
    const loose = writeTree({ "node_modules/.keep": "", "work/notes.txt": "" }, "skillgraph-loose-");
    expect(defaultSnapshotFolder(join(loose, "work"), { XDG_CACHE_HOME: "/var/cache/me" })).toBe(
      "/var/cache/me/skillgraph",
    );
    // The project's own node_modules is still used.
    mkdirSync(join(project, "node_modules"));
    expect(defaultSnapshotFolder(join(project, "src"))).toBe(join(project, "node_modules/.cache/skillgraph"));
  });
});

describe("attack: a planted search-index file", () => {
  /**
   * Two skills; the `.search` file beside the snapshot gets the keys of its two documents swapped, so "zebra" would find
   * "beta"; signed with this user's key when `signed` (then only the file's owner or mode can refuse it).
   */
  async function swappedIndex(signed = false): Promise<{ root: string; file: string }> {
    const root = writeTree(
      {
        "alpha/SKILL.md": skillMd("alpha", "Handles zebra records.", "Zebra zebra zebra stripes."),
        "beta/SKILL.md": skillMd("beta", "Handles invoices.", "Invoice totals and taxes."),
      },
      "skillgraph-search-attack-",
    );
    const file = join(mkdtempSync(join(tmpdir(), "skillgraph-cache-")), "registry.json");
    await buildRegistrySnapshot({ sources: [skillsFromDirectory(root)], out: file });
    const payload = Buffer.from(verifiedCachePayload(readFileSync(searchIndexFile(file)))!);
    const decoded = decodeSearchIndex(payload)!;
    expect(decoded.state.count).toBe(2);
    const swap = (view: Uint8Array, size: number) => {
      const at = view.byteOffset - payload.byteOffset;
      const first = Buffer.from(payload.subarray(at, at + size));
      payload.copy(payload, at, at + size, at + 2 * size);
      first.copy(payload, at + size);
    };
    swap(decoded.hashes, 32);
    swap(new Uint8Array(decoded.checks.buffer, decoded.checks.byteOffset, 8), 4);
    writeFileSync(searchIndexFile(file), signed ? signCacheBytes(payload) : payload);
    return { root, file };
  }

  it("a swapped index owned by this user has no valid MAC: ignored, the ranking comes from the skill files", async () => {
    const { root, file } = await swappedIndex();
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.search("stripes").map((hit) => hit.name)).toEqual(["alpha"]);
    await registry.close();
    // The same file signed by this user's skillgraph is served as it is: what the checks above stand between.
    const trusted = await swappedIndex(true);
    const served = await createSkillRegistry({ sources: [skillsFromDirectory(trusted.root)], snapshot: trusted.file });
    expect(served.search("stripes").map((hit) => hit.name)).toEqual(["beta"]);
    await served.close();
  });

  it.runIf(isRoot)("another user's index file is ignored: the ranking comes from the skill files", async () => {
    const { root, file } = await swappedIndex(true);
    chownSync(searchIndexFile(file), OTHER_UID, OTHER_UID);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.search("stripes").map((hit) => hit.name)).toEqual(["alpha"]);
    await registry.close();
  });

  it("a world-writable index file is ignored", async () => {
    const { root, file } = await swappedIndex(true);
    chmodSync(searchIndexFile(file), 0o666);
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: file });
    expect(registry.search("stripes").map((hit) => hit.name)).toEqual(["alpha"]);
    await registry.close();
  });
});
