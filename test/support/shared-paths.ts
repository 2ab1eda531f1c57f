import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The folder a local clone was made from (its `origin` when that is a path), so a clone in /tmp still finds `../shared`. */
function originCheckout(): string | undefined {
  try {
    const url = execFileSync("git", ["config", "--get", "remote.origin.url"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }).trim();
    const path = url.startsWith("file://") ? fileURLToPath(url) : url;
    return isAbsolute(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function findSharedDir(): string {
  const candidates = [process.env.SKILLGRAPH_SHARED, resolve(REPO_ROOT, "../shared")];
  const origin = originCheckout();
  if (origin) candidates.push(resolve(origin, "../shared"));
  for (const candidate of candidates)
    if (candidate && existsSync(resolve(candidate, "corpus/skills"))) return candidate;
  return resolve(REPO_ROOT, "../shared");
}

/** The shared material beside the repository (`../shared`, or beside the checkout this one was cloned from), or $SKILLGRAPH_SHARED. */
export const SHARED_DIR = findSharedDir();
/** The real-world SKILL.md corpus (read in place, never copied). */
export const CORPUS_DIR = resolve(SHARED_DIR, "corpus");
/** The corpus skills folder. */
export const CORPUS_SKILLS_DIR = resolve(CORPUS_DIR, "skills");
/** Whether the corpus is present; tests that need it say so when it is not. */
export const CORPUS_AVAILABLE = existsSync(CORPUS_SKILLS_DIR);
