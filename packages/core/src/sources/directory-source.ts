import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { SkillLayer } from "../skill/skill-types.js";
import type { SkillSource, SourceScan } from "./skill-source.js";
import { SkillFolderWalker, folderDiagnostic } from "./walk-skill-folders.js";

/** Options for a folder-tree source. */
export interface DirectorySourceOptions {
  /** Precedence layer. @default "explicit" */
  layer?: SkillLayer;
  /** A missing folder is silently empty (conventional locations) instead of a diagnostic. @default false */
  optional?: boolean;
  /** Folder levels to descend below the root (nested skills are found). @default 6 */
  maxDepth?: number;
  /** Extra folder names never entered (node_modules, .git and dot-folders are always skipped). */
  skip?: string[];
}

/**
 * Skills found in a folder tree: every folder holding a SKILL.md (or skill.md), nested ones included.
 * @example const source = skillsFromDirectory("./skills");
 */
export function skillsFromDirectory(dir: string, options: DirectorySourceOptions = {}): SkillSource {
  const root = resolve(dir);
  const walker = new SkillFolderWalker(root, {
    maxDepth: options.maxDepth ?? 6,
    skip: new Set(["node_modules", ".git", ...(options.skip ?? [])]),
  });
  return {
    id: `dir:${root}`,
    layer: options.layer ?? "explicit",
    kind: "directory",
    async scan(): Promise<SourceScan> {
      if (!existsSync(root)) {
        return {
          candidates: [],
          diagnostics: options.optional
            ? []
            : [folderDiagnostic("source-missing", root, `skills folder ${root} does not exist`)],
        };
      }
      return walker.walk();
    },
    watchRoots: () => walker.folders(),
    exportScanState: () => walker.exportFolders(),
    importScanState: (state, writtenNs) => walker.importFolders(state, writtenNs),
  };
}
