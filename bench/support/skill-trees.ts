import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHARED_DIR } from "../../test/support/shared-paths.js";

interface GeneratedTree {
  n: number;
  digest: string;
  skills: Array<{ name: string; source: string; bytes: number }>;
}

/** Generates (once, cached in the OS temp folder) a tree of N skills from the corpus, exactly as bench-peers' gen.mjs does. */
export async function skillTree(n: number): Promise<{ dir: string; manifest: GeneratedTree }> {
  const gen = (await import(join(SHARED_DIR, "bench-peers/gen.mjs"))) as {
    generateTree(n: number, out: string, options: { force: boolean }): GeneratedTree;
  };
  const dir = join(tmpdir(), "skillgraph-bench-trees", `n${n}`);
  const manifestFile = `${dir}.json`;
  if (existsSync(manifestFile) && existsSync(dir))
    return { dir, manifest: JSON.parse(readFileSync(manifestFile, "utf8")) as GeneratedTree };
  mkdirSync(dir, { recursive: true });
  const manifest = gen.generateTree(n, dir, { force: true });
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return { dir, manifest };
}
