import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { isInsideFolder } from "../safe-fs/is-inside-folder.js";
import type { SkillLayer } from "../skill/skill-types.js";
import type { SkillSource, SourceScan } from "./skill-source.js";
import { skillsFromDirectory } from "./directory-source.js";

/** Options for skills shipped in npm packages. */
export interface PackageSourceOptions {
  /** Folder to resolve node_modules from (walks up like Node does). @default process.cwd() */
  cwd?: string;
  /** @default "project" */
  layer?: SkillLayer;
}

/** Finds the folder of an installed package by walking up node_modules folders from `cwd`. */
export function findPackageDir(packageName: string, cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, "node_modules", packageName, "package.json");
    if (existsSync(candidate)) return dirname(candidate);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The skill folders a package declares: `"agentskills": "dir" | ["dir", ...]` in its package.json, else `skills/`. */
export function packageSkillFolders(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { agentskills?: unknown };
  const declared = manifest.agentskills;
  const folders =
    typeof declared === "string"
      ? [declared]
      : Array.isArray(declared)
        ? declared.filter((x): x is string => typeof x === "string")
        : ["skills"];
  return folders.map((folder) => resolve(packageDir, folder)).filter((folder) => isInsideFolder(folder, packageDir));
}

/**
 * Skills shipped inside an installed npm package (resolved from node_modules).
 * @example createSkillRegistry({ sources: [skillsFromPackage("@acme/skills")] })
 */
export function skillsFromPackage(packageName: string, options: PackageSourceOptions = {}): SkillSource {
  const cwd = options.cwd ?? process.cwd();
  const layer = options.layer ?? "project";
  let inner: SkillSource[] | undefined;
  return {
    id: `npm:${packageName}`,
    layer,
    kind: "npm",
    async scan(): Promise<SourceScan> {
      if (!inner) {
        const packageDir = findPackageDir(packageName, cwd);
        if (!packageDir) {
          throw new SkillgraphError({
            code: "package-not-found",
            message: `npm package '${packageName}' is not installed (looked in node_modules from ${resolve(cwd)} upwards)`,
          });
        }
        inner = packageSkillFolders(packageDir).map((folder) => skillsFromDirectory(folder, { layer, optional: true }));
      }
      const scans = await Promise.all(inner.map((source) => source.scan()));
      return {
        candidates: scans.flatMap((scan) => scan.candidates),
        diagnostics: scans.flatMap((scan) => scan.diagnostics),
      };
    },
    watchRoots: () => (inner ?? []).flatMap((source) => source.watchRoots?.() ?? []),
  };
}

/** Sources for every dependency in `cwd/package.json` that ships skills (an `agentskills` field or a `skills/` folder). */
export function skillsFromDependencies(options: PackageSourceOptions = {}): SkillSource[] {
  const cwd = resolve(options.cwd ?? process.cwd());
  const manifestPath = join(cwd, "package.json");
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, Record<string, string> | undefined>;
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).sort();
  const sources: SkillSource[] = [];
  for (const name of names) {
    const packageDir = findPackageDir(name, cwd);
    if (!packageDir) continue;
    const manifestText = readFileSync(join(packageDir, "package.json"), "utf8");
    if (manifestText.includes('"agentskills"') || existsSync(join(packageDir, "skills")))
      sources.push(skillsFromPackage(name, options));
  }
  return sources;
}
