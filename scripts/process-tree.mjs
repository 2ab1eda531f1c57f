// The processes below one process, read from /proc (Linux): for scripts/progress.mjs, which reports a part of a step
// that runs as a process of its own (the native build inside `pnpm install`).
import { readdirSync, readFileSync } from "node:fs";

/** Every process's parent, from /proc/PID/stat (the field after the parenthesised name, which may hold spaces). */
function parents() {
  const parentOf = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  return parentOf;
}

/** The command line of a process, its arguments joined by spaces ("" when it has ended). */
function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** The processes below `root` (children, their children, ...) whose command line matches `pattern`. */
export function matchingDescendants(root, pattern) {
  const parentOf = parents();
  const below = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parentOf)
      if (!below.has(pid) && below.has(ppid)) {
        below.add(pid);
        grew = true;
      }
  }
  below.delete(root);
  return [...below].filter((pid) => pattern.test(commandLine(pid)));
}
