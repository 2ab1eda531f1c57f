import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

// Where this process may make per-command groups: its own group of the memory and pids controllers (cgroup v2's one
// hierarchy, or v1's two), probed once, with groups left by agents that died swept away.

/** Where per-command cgroups can be made on this host (found by the executors; part of CommandLimits). */
export interface CgroupHost {
  /** The cgroup version the host mounts. */
  version: 1 | 2;
  /** v2: the one parent; v1: the memory hierarchy's parent. */
  memoryParent: string;
  /** v2: same as memoryParent; v1: the pids hierarchy's parent. */
  pidsParent: string;
}

let detected: CgroupHost | { unavailable: string } | undefined;

function ownGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (controllers === undefined || where === undefined) continue;
    for (const controller of controllers === "" ? [""] : controllers.split(",")) groups.set(controller, where);
  }
  return groups;
}

function probe(parent: string): void {
  const folder = path.join(parent, `skillgraph-probe-${process.pid}`);
  mkdirSync(folder);
  rmdirSync(folder);
}

/** cgroup v2: our own group must have memory and pids enabled for children (or be made to, by moving into a leaf). */
function detectV2(mount: string, where: string): CgroupHost | string {
  const own = path.join(mount, where);
  const available = readFileSync(path.join(own, "cgroup.controllers"), "utf8").split(/\s+/);
  if (!available.includes("memory") || !available.includes("pids"))
    return `cgroup v2 at ${own} does not offer the memory and pids controllers`;
  const enabled = () => readFileSync(path.join(own, "cgroup.subtree_control"), "utf8").split(/\s+/);
  if (!enabled().includes("memory") || !enabled().includes("pids")) {
    // no internal processes: this process moves into a leaf of its own group, then the group delegates to children
    const leaf = path.join(own, "skillgraph-agent");
    mkdirSync(leaf, { recursive: true });
    writeFileSync(path.join(leaf, "cgroup.procs"), String(process.pid));
    writeFileSync(path.join(own, "cgroup.subtree_control"), "+memory +pids");
  }
  probe(own);
  return { version: 2, memoryParent: own, pidsParent: own };
}

function detectV1(groups: Map<string, string>): CgroupHost | string {
  const memory = groups.get("memory");
  const pids = groups.get("pids");
  if (memory === undefined || pids === undefined) return "no memory and pids cgroup (v1 or v2) for this process";
  const memoryParent = path.join("/sys/fs/cgroup/memory", memory);
  const pidsParent = path.join("/sys/fs/cgroup/pids", pids);
  probe(memoryParent);
  probe(pidsParent);
  return { version: 1, memoryParent, pidsParent };
}

/** Removes empty groups left by agent processes that are gone (killed before they could remove their own). */
export function sweepStaleGroups(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = /^skillgraph-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid) continue;
    try {
      process.kill(Number(owner), 0);
      continue; // its agent still runs
    } catch {
      // gone
    }
    try {
      rmdirSync(path.join(parent, name));
    } catch {
      // not empty (its processes are still exiting) or already removed
    }
  }
}

/** Finds whether per-command groups can be made here (once per process), and sweeps groups left by dead agents. */
export function detectCgroupHost(): CgroupHost | { unavailable: string } {
  if (detected) return detected;
  if (process.platform !== "linux") return (detected = { unavailable: `not on Linux (${process.platform})` });
  try {
    const groups = ownGroups();
    const unified = groups.get("");
    const mounts = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].filter((mount) =>
      existsSync(path.join(mount, "cgroup.controllers")),
    );
    const reasons: string[] = [];
    for (const mount of unified === undefined ? [] : mounts) {
      try {
        const found = detectV2(mount, unified as string);
        if (typeof found !== "string") {
          sweepStaleGroups(found.memoryParent);
          return (detected = found);
        }
        reasons.push(found);
      } catch (error) {
        reasons.push(`cgroup v2 at ${mount}: ${(error as Error).message}`);
      }
    }
    try {
      const found = detectV1(groups);
      if (typeof found !== "string") {
        sweepStaleGroups(found.memoryParent);
        sweepStaleGroups(found.pidsParent);
        return (detected = found);
      }
      reasons.push(found);
    } catch (error) {
      reasons.push(`cgroup v1: ${(error as Error).message}`);
    }
    detected = { unavailable: reasons.join("; ") || "no cgroup hierarchy found" };
  } catch (error) {
    detected = { unavailable: (error as Error).message };
  }
  return detected;
}
