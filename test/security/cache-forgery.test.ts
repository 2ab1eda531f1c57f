import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { buildRegistrySnapshot, defaultSnapshotFile, defaultSnapshotFolder } from "@skillgraph/core/snapshot";
import { skillMd, writeTree } from "../support/skill-tree.js";

// A repository can ship files in the default cache location (`node_modules/.cache/skillgraph` of the project): after
// `git clone` they belong to the user and are not writable by others, so ownership checks pass. A registry snapshot
// or its search-index file is served only when it carries a MAC under this user's cache key (kept in the user's own
// cache folder, which a repository cannot write): a forged or edited cache is ignored and the skills load from files.

const READ_ONLY_SKILL = `---\nname: tidy\ndescription: Tidies notes.\nallowed-tools: Read\n---\n\nTidy the notes.\n`;

/** The bytes of a cache file after the MAC line this user's skillgraph puts before them (the attacker has no key). */
function payloadOf(path: string): Buffer {
  const bytes = readFileSync(path);
  return bytes.subarray(bytes.indexOf(0x0a) + 1);
}

/** `bytes` with `from` replaced by `to`, a text of the same length (the snapshot's sizes stay consistent). */
function replaced(bytes: Buffer, from: string, to: string): Buffer {
  const at = bytes.indexOf(from);
  expect(at).toBeGreaterThan(0);
  const copy = Buffer.from(bytes);
  copy.write(to, at);
  return copy;
}

/** A cloned repository: a project with skills and a cache folder it ships; the snapshot path skillgraph would use. */
function clonedRepository(skills: Record<string, string>) {
  const project = writeTree(
    {
      "package.json": "{}",
      "node_modules/.keep": "",
      ...Object.fromEntries(Object.entries(skills).map(([p, t]) => [`skills/${p}`, t])),
    },
    "skillgraph-cloned-",
  );
  const root = join(project, "skills");
  const past = Date.now() / 1000 - 3600;
  for (const file of Object.keys(skills)) utimesSync(join(root, file), past, past);
  const snapshot = defaultSnapshotFile([skillsFromDirectory(root).id], defaultSnapshotFolder(project));
  mkdirSync(dirname(snapshot), { recursive: true });
  return { root, snapshot };
}

describe("attack: a registry snapshot shipped in the repository's default cache location", () => {
  it("does not grant Bash to a skill whose SKILL.md says Read", async () => {
    const { root, snapshot } = clonedRepository({ "tidy/SKILL.md": READ_ONLY_SKILL });
    // The attacker builds a real snapshot of the same tree, then rewrites what it says about the skill.
    const built = join(mkdtempSync(join(tmpdir(), "skillgraph-attacker-")), "registry.json");
    await buildRegistrySnapshot({ sources: [skillsFromDirectory(root)], out: built });
    const forged = replaced(replaced(payloadOf(built), '"Read"', '"Bash"'), "Tidies notes.", "Run anything.");
    writeFileSync(snapshot, forged);
    const later = Date.now() / 1000 + 3600;
    utimesSync(snapshot, later, later);

    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot });
    expect(registry.get("tidy")).toMatchObject({ allowedTools: ["Read"], description: "Tidies notes." });
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toContain("registry-snapshot-untrusted");
    await registry.close();
    // Rewritten by this user: the next registry is served from a snapshot it can trust, with SKILL.md's tools.
    const again = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot });
    expect(again.get("tidy")?.allowedTools).toEqual(["Read"]);
    expect(again.diagnostics()).toEqual([]);
    await again.close();
  });
});

describe("attack: a search-index file edited in place", () => {
  it("does not change the ranking: it is checked against this user's key and rebuilt from the files", async () => {
    const { root, snapshot } = clonedRepository({
      "alpha/SKILL.md": skillMd("alpha", "Handles zebra records.", "Zebra zebra zebra stripes."),
      "beta/SKILL.md": skillMd("beta", "Handles invoices.", "Invoice totals and taxes."),
    });
    await buildRegistrySnapshot({ sources: [skillsFromDirectory(root)], out: snapshot });
    const searchFile = `${snapshot}.search`;
    // Swap what the two stored documents say they were analyzed from (content hash, then the name/description
    // check that follows the hashes), so "stripes" would find beta; the MAC line before the payload is kept.
    const bytes = readFileSync(searchFile);
    const hashOf = (skill: string) =>
      createHash("sha256")
        .update(readFileSync(join(root, skill, "SKILL.md")))
        .digest();
    const at = [bytes.indexOf(hashOf("alpha")), bytes.indexOf(hashOf("beta"))];
    expect(at.every((offset) => offset > 0)).toBe(true);
    const swap = (a: number, b: number, size: number) => {
      const first = Buffer.from(bytes.subarray(a, a + size));
      bytes.copy(bytes, a, b, b + size);
      first.copy(bytes, b);
    };
    swap(at[0]!, at[1]!, 32);
    const checks = Math.min(...at) + 64;
    swap(checks, checks + 4, 4);
    writeFileSync(searchFile, bytes);

    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot });
    expect(registry.search("stripes").map((hit) => hit.name)).toEqual(["alpha"]);
    await registry.close();
  });
});
