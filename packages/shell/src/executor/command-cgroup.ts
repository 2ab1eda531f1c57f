import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunningCommand } from "./executor-types.js";

/**
 * A control group per command: `memory.max` and `pids.max` (cgroup v2) or `memory.limit_in_bytes` and `pids.max`
 * (cgroup v1) hold for the command's whole process tree, shared memory and memfd included, which per-process rlimits
 * do not. Groups are made under this process's own group (delegation: nothing outside it is touched), joined by the
 * command before it runs (a small `sh` that writes its pid, then execs; if the write fails the command does not run),
 * and killed and removed when the command ends.
 */

/** Where per-command groups can be made here. */
export interface CgroupHost {
  version: 1 | 2;
  /** v2: the one parent; v1: the memory hierarchy's parent. */
  memoryParent: string;
  /** v2: same as memoryParent; v1: the pids hierarchy's parent. */
  pidsParent: string;
}

/** One command's group, made before it starts. */
export interface CommandCgroup {
  /** The argv prefix that joins the group and then execs the rest. */
  joinPrefix: string[];
  /** Kills what is left in the group and removes it. */
  release(): Promise<void>;
}

const JOIN_SCRIPT = 'for f; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"';

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

/** Finds whether per-command groups can be made here (once per process). */
export function detectCgroupHost(): CgroupHost | { unavailable: string } {
  if (detected) return detected;
  try {
    if (process.platform !== "linux") throw new Error(`not on Linux (${process.platform})`);
    const groups = ownGroups();
    const unified = groups.get("");
    const mounts = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].filter((mount) =>
      existsSync(path.join(mount, "cgroup.controllers")),
    );
    const reasons: string[] = [];
    for (const mount of unified === undefined ? [] : mounts) {
      try {
        const found = detectV2(mount, unified as string);
        if (typeof found !== "string") return (detected = found);
        reasons.push(found);
      } catch (error) {
        reasons.push(`cgroup v2 at ${mount}: ${(error as Error).message}`);
      }
    }
    try {
      const found = detectV1(groups);
      if (typeof found !== "string") return (detected = found);
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function killAndRemove(folder: string, useKillFile: boolean): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      if (useKillFile && existsSync(path.join(folder, "cgroup.kill")))
        writeFileSync(path.join(folder, "cgroup.kill"), "1");
      else
        for (const pid of readFileSync(path.join(folder, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) {
          try {
            process.kill(Number(pid), "SIGKILL");
          } catch {
            // already gone
          }
        }
      rmdirSync(folder);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      await pause(25 * (attempt + 1));
    }
  }
  process.emitWarning(`@skillgraph/shell: could not remove the command's cgroup ${folder}`);
}

/**
 * Makes a group for one command with its memory and process limits.
 * @returns undefined when the group cannot be made (the caller warns; the rlimits still apply)
 */
export function openCommandCgroup(
  host: CgroupHost,
  limits: { memoryBytes: number; processes: number },
  runId: string,
): CommandCgroup | undefined {
  const name = `skillgraph-${runId.replace(/[^A-Za-z0-9-]/g, "")}`;
  const memoryFolder = path.join(host.memoryParent, name);
  const pidsFolder = path.join(host.pidsParent, name);
  const made: string[] = [];
  try {
    mkdirSync(memoryFolder);
    made.push(memoryFolder);
    if (host.version === 2) {
      writeFileSync(path.join(memoryFolder, "memory.max"), String(limits.memoryBytes));
      if (existsSync(path.join(memoryFolder, "memory.swap.max")))
        writeFileSync(path.join(memoryFolder, "memory.swap.max"), "0");
      writeFileSync(path.join(memoryFolder, "pids.max"), String(limits.processes));
    } else {
      writeFileSync(path.join(memoryFolder, "memory.limit_in_bytes"), String(limits.memoryBytes));
      if (existsSync(path.join(memoryFolder, "memory.memsw.limit_in_bytes")))
        writeFileSync(path.join(memoryFolder, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      mkdirSync(pidsFolder);
      made.push(pidsFolder);
      writeFileSync(path.join(pidsFolder, "pids.max"), String(limits.processes));
    }
  } catch {
    for (const folder of made.reverse()) void killAndRemove(folder, host.version === 2);
    return undefined;
  }
  const procs = made.map((folder) => path.join(folder, "cgroup.procs"));
  return {
    joinPrefix: ["/bin/sh", "-c", JOIN_SCRIPT, "skillgraph-cgroup", ...procs, "--"],
    release: async () => {
      for (const folder of [...made].reverse()) await killAndRemove(folder, host.version === 2);
    },
  };
}

let groupWarned = false;

/**
 * Starts a command inside a fresh group when `host` is set: `start` gets the argv prefix that joins it; the group is
 * removed once the command's result is in. Without a host (or when the group cannot be made) `start` gets [].
 */
export function startInCommandCgroup(
  host: CgroupHost | undefined,
  limits: { memoryBytes: number; processes: number },
  runId: string,
  start: (prefix: string[]) => RunningCommand,
): RunningCommand {
  const group = host ? openCommandCgroup(host, limits, runId) : undefined;
  if (host && !group && !groupWarned) {
    groupWarned = true;
    process.emitWarning(
      `@skillgraph/shell: could not make a cgroup under ${host.memoryParent}; this command's memory is limited per process only`,
    );
  }
  const running = start(group?.joinPrefix ?? []);
  if (group) void running.result.finally(() => group.release());
  return running;
}
