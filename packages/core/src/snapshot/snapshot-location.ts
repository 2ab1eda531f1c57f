import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { SKILLGRAPH_CORE_VERSION, SNAPSHOT_VERSION } from "./snapshot-format.js";

/** Files that mark a project root: the cache search never climbs above the folder holding one. */
const PROJECT_ROOT_MARKERS = ["package.json", ".git"];

/**
 * The folder snapshots are cached in by default: `node_modules/.cache/skillgraph` of the nearest `node_modules` from
 * `cwd` up to the project root (the nearest folder holding a `package.json` or `.git`; where build tools keep their
 * caches), else `$XDG_CACHE_HOME/skillgraph`, else `~/.cache/skillgraph`. The search never goes above the project
 * root, and outside a project no `node_modules` is used: a folder above the project may belong to another user.
 */
export function defaultSnapshotFolder(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const found = projectNodeModules(resolve(cwd));
  if (found !== undefined) return join(found, ".cache", "skillgraph");
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "skillgraph");
}

/** The nearest `node_modules` from `start` up to its project root, or undefined (none, or no project root). */
function projectNodeModules(start: string): string | undefined {
  const visited: string[] = [];
  for (let dir = start; ;) {
    visited.push(dir);
    if (PROJECT_ROOT_MARKERS.some((marker) => existsSync(join(dir, marker)))) break;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  for (const dir of visited) if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules");
  return undefined;
}

/**
 * The default snapshot file for a set of sources: one file per distinct set and skillgraph version, named by a hash of
 * both, so two versions sharing a cache folder (two checkouts, a CLI and an app) never overwrite each other's file.
 */
export function defaultSnapshotFile(sourceIds: readonly string[], folder: string = defaultSnapshotFolder()): string {
  const digest = createHash("sha256")
    .update([SKILLGRAPH_CORE_VERSION, SNAPSHOT_VERSION, ...[...sourceIds].sort()].join("\0"))
    .digest("hex")
    .slice(0, 16);
  return join(folder, `registry-${digest}.json`);
}
