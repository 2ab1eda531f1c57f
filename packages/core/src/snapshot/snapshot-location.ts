import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { SKILLGRAPH_CORE_VERSION, SNAPSHOT_VERSION } from "./snapshot-format.js";

/**
 * The folder snapshots are cached in by default: `node_modules/.cache/skillgraph` of the nearest `node_modules` above
 * `cwd` (where build tools keep their caches), else `$XDG_CACHE_HOME/skillgraph`, else `~/.cache/skillgraph`.
 */
export function defaultSnapshotFolder(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "skillgraph");
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "skillgraph");
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
