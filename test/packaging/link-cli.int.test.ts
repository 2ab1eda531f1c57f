// `npm run link:cli` (scripts/link-cli.sh) puts `skillgraph` on the PATH from a clone: the shim runs this clone's built
// CLI, `--version` answers, and `--json` output parses (no pnpm banner on stdout).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

describe("npm run link:cli", () => {
  const bin = mkdtempSync(join(tmpdir(), "skillgraph-link-"));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it("writes a skillgraph shim into the folder given; on the PATH it runs the CLI with clean JSON", () => {
    const link = spawnSync("npm", ["run", "--silent", "link:cli", "--", bin], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(link.status, link.stderr).toBe(0);
    expect(link.stderr).toContain(`${join(bin, "skillgraph")} -> ${REPO_ROOT}/packages/cli/dist/bin.js`);
    expect(readFileSync(join(bin, "skillgraph"), "utf8")).toContain("skillgraph shim");
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1" };
    const version = spawnSync("skillgraph", ["--version"], { cwd: REPO_ROOT, env, encoding: "utf8" });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const list = spawnSync("skillgraph", ["list", "--json", "--skills", "examples/skills"], {
      cwd: REPO_ROOT,
      env,
      encoding: "utf8",
    });
    expect(list.status, list.stderr).toBe(0);
    const payload = JSON.parse(list.stdout) as { skills: Array<{ name: string }> };
    expect(payload.skills.map((skill) => skill.name)).toContain("release-notes");
    // A second run replaces its own shim; a foreign file of that name is left alone.
    expect(spawnSync("bash", ["scripts/link-cli.sh", bin], { cwd: REPO_ROOT }).status).toBe(0);
    const foreign = mkdtempSync(join(tmpdir(), "skillgraph-foreign-"));
    try {
      writeFileSync(join(foreign, "skillgraph"), "#!/bin/sh\necho someone else's\n");
      const refused = spawnSync("bash", ["scripts/link-cli.sh", foreign], { cwd: REPO_ROOT, encoding: "utf8" });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("is not a skillgraph shim");
      expect(readFileSync(join(foreign, "skillgraph"), "utf8")).toContain("someone else's");
    } finally {
      rmSync(foreign, { recursive: true, force: true });
    }
  });
});
