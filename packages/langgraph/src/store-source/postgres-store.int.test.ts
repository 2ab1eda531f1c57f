// Skills shared by a fleet, on the real PostgreSQL the int setup starts: two registries in two processes see a skill
// published by a third process (`skillgraph publish`), and an update to it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, inject, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../../..");
const baseUrl = inject("postgresUrl");
const nodeArgs = ["--conditions=@skillgraph/source", "--import", "tsx"];

/** A reader process: answers each "reload" with its skills as a JSON line. */
function startReader(url: string, schema: string) {
  const child = spawn(process.execPath, [...nodeArgs, join(here, "__fixtures__/store-reader.ts"), url, schema], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "pipe"],
  }) as ChildProcessWithoutNullStreams;
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`reader exited: ${stderr}`);
    return JSON.parse(line.value) as Array<[string, string]>;
  };
  return {
    child,
    first: next(),
    async reload() {
      child.stdin.write("reload\n");
      return next();
    },
  };
}

function publish(folder: string, storeUrl: string) {
  const run = spawnSync(
    process.execPath,
    [...nodeArgs, "packages/cli/src/bin.ts", "publish", folder, "--store", storeUrl, "--json"],
    { cwd: repoRoot, encoding: "utf8", timeout: 120_000 },
  );
  if (run.status !== 0) throw new Error(`publish failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as { published: string[] };
}

const readers: Array<ReturnType<typeof startReader>> = [];
afterAll(() => {
  for (const reader of readers) reader.child.kill();
});

describe("skills in a PostgresStore shared by several processes", () => {
  it.skipIf(!baseUrl)(
    `two registries in two processes see a skill published by a third${baseUrl ? "" : ` (skipped: ${inject("postgresUnavailable")})`}`,
    async () => {
      const schema = `skills_${randomBytes(5).toString("hex")}`;
      const storeUrl = `${baseUrl}?schema=${schema}`;
      const folder = writeTree({
        "release-notes/SKILL.md": skillMd("release-notes", "Write release notes from git history."),
      });
      // The first publish creates the schema's tables; then the readers start with what is there.
      expect(publish(folder, storeUrl).published).toEqual(["release-notes"]);
      readers.push(startReader(baseUrl, schema), startReader(baseUrl, schema));
      for (const reader of readers)
        expect(await reader.first).toEqual([["release-notes", "Write release notes from git history."]]);

      const more = writeTree({ "sql-review/SKILL.md": skillMd("sql-review", "Review SQL for slow queries.") });
      expect(publish(more, storeUrl).published).toEqual(["sql-review"]);
      writeFileSync(
        join(folder, "release-notes/SKILL.md"),
        skillMd("release-notes", "Write release notes, grouped by type."),
      );
      publish(folder, storeUrl);
      for (const reader of readers) {
        expect(await reader.reload()).toEqual([
          ["release-notes", "Write release notes, grouped by type."],
          ["sql-review", "Review SQL for slow queries."],
        ]);
      }

      const listed = spawnSync(
        process.execPath,
        [...nodeArgs, "packages/cli/src/bin.ts", "list", "--store", storeUrl, "--json"],
        { cwd: repoRoot, encoding: "utf8", timeout: 120_000 },
      );
      expect(listed.status, listed.stderr).toBe(0);
      expect(
        (JSON.parse(listed.stdout) as { skills: Array<{ name: string; source: string }> }).skills.map((skill) => [
          skill.name,
          skill.source,
        ]),
      ).toEqual([
        ["release-notes", "store:skillgraph/skills"],
        ["sql-review", "store:skillgraph/skills"],
      ]);
    },
    180_000,
  );
});
