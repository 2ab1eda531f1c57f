import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The shared material beside the repository (`../shared`), or $SKILLGRAPH_SHARED. */
export const SHARED_DIR = process.env.SKILLGRAPH_SHARED ?? resolve(REPO_ROOT, "../shared");
/** The real-world SKILL.md corpus (read in place, never copied). */
export const CORPUS_DIR = resolve(SHARED_DIR, "corpus");
/** The corpus skills folder. */
export const CORPUS_SKILLS_DIR = resolve(CORPUS_DIR, "skills");
