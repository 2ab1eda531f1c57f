// Each published package ships a CHANGELOG.md whose newest entry is the version in its package.json (changesets
// prepends entries on `pnpm changeset version`), and packs it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

const packages = readdirSync(join(REPO_ROOT, "packages")).sort();

describe("package changelogs", () => {
  it.each(packages)("packages/%s has a CHANGELOG.md for its current version, listed in files", (dir) => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "packages", dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      files: string[];
    };
    const changelog = readFileSync(join(REPO_ROOT, "packages", dir, "CHANGELOG.md"), "utf8");
    expect(changelog.startsWith(`# ${manifest.name}\n`)).toBe(true);
    expect(/^## (\S+)$/m.exec(changelog)?.[1]).toBe(manifest.version);
    expect(manifest.files).toContain("CHANGELOG.md");
  });
});
