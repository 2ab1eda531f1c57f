import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { integerSchema } from "../errors/integer-option.js";
import { booleanSchema } from "../errors/option-schemas.js";
import { parseOptions } from "../errors/parse-options.js";
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

/** The options as one schema, defaults inside. */
const directorySourceOptionsSchema = z.object({
  layer: z
    .enum(["user", "project", "explicit"], { error: 'must be "user", "project" or "explicit"' })
    .default("explicit"),
  optional: booleanSchema().default(false),
  maxDepth: integerSchema({ min: 0 }).default(6),
  skip: z.array(z.string(), { error: "must be an array of folder names" }).default([]),
  maxSkills: integerSchema({ min: 0 }).default(10_000),
  maxFolders: integerSchema({ min: 0 }).default(50_000),
  maxLinks: integerSchema({ min: 0 }).default(100),
});

/**
 * Skills found in a folder tree: every folder holding a SKILL.md (or skill.md), nested ones included. The walk is
 * bounded (depth, skills, folders, symlinks followed), never enters `/proc`, `/sys` or `/dev`, and never follows a
 * symlink back to the root or a folder above it. A folder that
 * does not exist or cannot be read is a `SkillSourceError` unless `optional: true`.
 * @example const source = skillsFromDirectory("./skills");
 */
export function skillsFromDirectory(dir: string, options: DirectorySourceOptions = {}): SkillSource {
  const root = resolve(dir);
  const { layer, optional, maxDepth, skip, maxSkills, maxFolders, maxLinks } = parseOptions(
    directorySourceOptionsSchema,
    options,
  );
  const walker = new SkillFolderWalker(root, {
    maxDepth,
    skip: new Set(["node_modules", ".git", ...skip]),
    maxSkills,
    maxFolders,
    maxLinks,
  });
  return {
    id: `dir:${root}`,
    layer,
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
        if (optional) return { candidates: [], diagnostics: [] };
        throw problem;
      }
      const scan = await walker.walk();
      // The root itself could not be listed (permissions, I/O): as loud as a missing root.
      const rootUnreadable = scan.diagnostics.find((d) => d.code === "source-unreadable" && d.path === root);
      if (rootUnreadable && !optional)
        throw new SkillSourceError({ path: root, problem: "unreadable", reason: rootUnreadable.message });
      return scan;
    },
    watchRoots: () => walker.folders(),
    exportScanState: () => walker.exportFolders(),
    importScanState: (state, writtenNs) => walker.importFolders(state, writtenNs),
  };
}
