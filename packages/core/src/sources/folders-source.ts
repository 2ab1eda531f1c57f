// A source whose folders can change while the registry runs (Strands' skills added to a running agent from a new
// folder): `add(dir)` checks the folder, then the registry's next `reload()` (or its watch) loads its skills.
import { resolve } from "node:path";
import { skillsFromDirectory, type DirectorySourceOptions } from "./directory-source.js";
import type { SkillCandidate, SkillSource, SourceScan } from "./skill-source.js";
import type { SkillDiagnostic } from "../skill/skill-types.js";

/** A {@link SkillSource} over a set of folders that can grow and shrink while the registry runs. */
export interface FoldersSource extends SkillSource {
  /**
   * Adds a folder tree (scanned now, so a missing or unreadable folder is a `SkillSourceError` here, not later); its
   * skills are loaded by the registry's next `reload()`. Adding a folder twice is a no-op.
   */
  add(dir: string): Promise<void>;
  /** Removes a folder; its skills leave at the next `reload()`. False when it was not there. */
  remove(dir: string): boolean;
  /** The folders, absolute, in the order they were added. */
  folders(): string[];
}

/**
 * Skills from folders that can be added while the agent runs: `add("./new")`, then `registry.reload()`. Each folder is
 * read like `skillsFromDirectory` with the same options; all share one layer (explicit by default).
 * @example
 * const folders = skillsFromFolders(["./skills"]);
 * const registry = await createSkillRegistry({ sources: [folders] });
 * await folders.add("./more-skills");
 * await registry.reload(); // the next model call lists them
 */
export function skillsFromFolders(dirs: readonly string[] = [], options: DirectorySourceOptions = {}): FoldersSource {
  const sources = new Map<string, SkillSource>();
  for (const dir of dirs) sources.set(resolve(dir), skillsFromDirectory(dir, options));
  return {
    id: `folders:${[...sources.keys()].join(",") || "(empty)"}`,
    layer: options.layer ?? "explicit",
    kind: "directory",
    async scan(): Promise<SourceScan> {
      const candidates: SkillCandidate[] = [];
      const diagnostics: SkillDiagnostic[] = [];
      for (const source of sources.values()) {
        const scan = await source.scan();
        candidates.push(...scan.candidates);
        diagnostics.push(...scan.diagnostics);
      }
      return { candidates, diagnostics };
    },
    watchRoots: () => [...sources.values()].flatMap((source) => source.watchRoots?.() ?? []),
    async add(dir) {
      const root = resolve(dir);
      if (sources.has(root)) return;
      const source = skillsFromDirectory(root, options);
      await source.scan();
      sources.set(root, source);
    },
    remove: (dir) => sources.delete(resolve(dir)),
    folders: () => [...sources.keys()],
  };
}
