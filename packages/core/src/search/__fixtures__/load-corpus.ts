// Test/bench helper: reads the shared real-skill corpus in place with a minimal frontmatter reader.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { parse } from "yaml";
import { CORPUS_SKILLS_DIR } from "../../../../../test/support/shared-paths.js";
import type { SearchDocument } from "../search-types.js";

/** Where the shared corpus lives on the build machines. */
export const CORPUS_ROOT = CORPUS_SKILLS_DIR;

/** A corpus skill as a search document plus its directory relative to the corpus root. */
export interface CorpusSkill {
  dir: string;
  document: SearchDocument;
}

function findSkillFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) findSkillFiles(full, out);
    else if (entry === "SKILL.md") out.push(full);
  }
  return out;
}

/** Loads every SKILL.md under `root`; names that repeat get a `-2`, `-3` suffix so each skill stays indexable. */
export function loadCorpus(root: string = CORPUS_ROOT): CorpusSkill[] {
  const seen = new Map<string, number>();
  return findSkillFiles(root, []).map((file) => {
    const text = readFileSync(file, "utf8");
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
    const frontmatter = (match ? (parse(match[1]!) as Record<string, unknown> | null) : null) ?? {};
    const dir = relative(root, join(file, "..")).split(sep).join("/");
    const baseName = typeof frontmatter.name === "string" ? frontmatter.name : dir.split("/").pop()!;
    const count = (seen.get(baseName) ?? 0) + 1;
    seen.set(baseName, count);
    return {
      dir,
      document: {
        name: count === 1 ? baseName : `${baseName}-${count}`,
        description: typeof frontmatter.description === "string" ? frontmatter.description : "",
        body: match ? text.slice(match[0].length) : text,
        path: file,
      },
    };
  });
}

/** One labelled query from natural-queries.json. */
export interface NaturalQuery {
  query: string;
  expected: string[];
  split: "tune" | "holdout";
}

/** The labelled queries; `expected` holds corpus-relative skill directories (empty = nothing fits). */
export function loadNaturalQueries(): NaturalQuery[] {
  return JSON.parse(readFileSync(new URL("./natural-queries.json", import.meta.url), "utf8")) as NaturalQuery[];
}
