import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { SkillSourceError } from "../errors/skill-source-error.js";
import type { SkillLayer } from "../skill/skill-types.js";
import type { SkillSource, SourceScan } from "./skill-source.js";
import { SkillFolderWalker } from "./walk-skill-folders.js";

/** Options for a folder-tree source. */
export interface DirectorySourceOptions {
  /** Precedence layer. @default "explicit" */
  layer?: SkillLayer;
  /**
   * A missing or unreadable folder is silently empty (conventional locations). Otherwise `scan()` throws a
   * `SkillSourceError` naming the folder, so `createSkillRegistry` rejects; a folder that vanishes after the first load
   * is reported by `reload()` as a `source-missing` diagnostic instead. @default false
   */
  optional?: boolean;
  /** Folder levels to descend below the root (nested skills are found). @default 6 */
  maxDepth?: number;
  /** Extra folder names never entered (node_modules, .git and dot-folders are always skipped). */
  skip?: string[];
  /** Most skills loaded from this folder tree; the rest are left out with a `source-limit` warning. @default 10000 */
  maxSkills?: number;
  /** Most folders visited (and watched) in this tree; the rest are left out with a `source-limit` warning. @default 50000 */
  maxFolders?: number;
  /** Most symlinked folders followed in this tree; the rest are not entered (`source-limit`). @default 100 */
  maxLinks?: number;
}

/**
 * Skills found in a folder tree: every folder holding a SKILL.md (or skill.md), nested ones included. The walk is
 * bounded (depth, skills, folders, symlinks followed), never enters `/proc`, `/sys` or `/dev`, and never follows a
 * symlink back to the root or a folder above it. A folder that
 * does not exist or cannot be read is a `SkillSourceError` unless `optional: true`.
 * @example const source = skillsFromDirectory("./skills");
 */
export function skillsFromDirectory(dir: string, options: DirectorySourceOptions = {}): SkillSource {
  const root = resolve(dir);
  const walker = new SkillFolderWalker(root, {
    maxDepth: countOption("maxDepth", options.maxDepth, 6),
    skip: new Set(["node_modules", ".git", ...(options.skip ?? [])]),
    maxSkills: countOption("maxSkills", options.maxSkills, 10_000),
    maxFolders: countOption("maxFolders", options.maxFolders, 50_000),
    maxLinks: countOption("maxLinks", options.maxLinks, 100),
  });
  return {
    id: `dir:${root}`,
    layer: options.layer ?? "explicit",
    kind: "directory",
    async scan(): Promise<SourceScan> {
      let problem: SkillSourceError | undefined;
      try {
        if (!(await stat(root)).isDirectory())
          problem = new SkillSourceError({ path: root, problem: "unreadable", reason: "not a folder" });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        problem =
          code === "ENOENT" || code === "ENOTDIR"
            ? new SkillSourceError({ path: root, problem: "missing" })
            : new SkillSourceError({ path: root, problem: "unreadable", reason: (error as Error).message });
      }
      if (problem) {
        if (options.optional) return { candidates: [], diagnostics: [] };
        throw problem;
      }
      const scan = await walker.walk();
      // The root itself could not be listed (permissions, I/O): as loud as a missing root.
      const rootUnreadable = scan.diagnostics.find((d) => d.code === "source-unreadable" && d.path === root);
      if (rootUnreadable && !options.optional)
        throw new SkillSourceError({ path: root, problem: "unreadable", reason: rootUnreadable.message });
      return scan;
    },
    watchRoots: () => walker.folders(),
    exportScanState: () => walker.exportFolders(),
    importScanState: (state, writtenNs) => walker.importFolders(state, writtenNs),
  };
}

/** A non-negative integer option, or its default; anything else is an InvalidOptionsError. */
function countOption(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new InvalidOptionsError({ option, value, message: "must be a non-negative integer" });
  return value;
}
