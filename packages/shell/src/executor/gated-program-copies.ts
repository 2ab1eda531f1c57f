// The real files of gated programs, as the exec-broker runs them: a private copy per file, executable but not readable
// (mode 0111), so the kernel marks each process running one non-dumpable and nothing in the sandbox can reach the
// real program through /proc/PID/exe, /proc/PID/mem or ptrace. A script stays readable (0555): its interpreter reads it.
import {
  closeSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  writeSync,
  constants,
} from "node:fs";
import os from "node:os";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import path from "node:path";

/** A private copy of one program file. */
export interface GatedProgramCopy {
  /** Host path of the copy (in a 0700 folder of this process). */
  path: string;
  /** True when the file starts with `#!`. */
  script: boolean;
}

let folder: string | undefined;
const copies = new Map<string, GatedProgramCopy>();

/** Whether the mount holding `dir` allows running files (the longest mount point above it has no `noexec`). */
function allowsExec(dir: string): boolean {
  let best = "";
  let noexec = true;
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const fields = line.split(" ");
    const point = (fields[4] ?? "").replace(/\\(\d{3})/g, (_: string, octal: string) =>
      String.fromCharCode(parseInt(octal, 8)),
    );
    const inside = point === "/" || dir === point || dir.startsWith(`${point}/`);
    if (!inside || point.length < best.length) continue;
    best = point;
    noexec = (fields[5] ?? "").split(",").includes("noexec");
  }
  return best !== "" && !noexec;
}

/** Removes the copies of processes that are gone (killed before their exit hook ran). */
function sweepStale(parent: string): void {
  for (const name of readdirSync(parent)) {
    const owner = /^gated-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid) continue;
    try {
      process.kill(Number(owner), 0);
      continue; // still running
    } catch {
      rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/**
 * A 0700 folder for the copies on a mount that allows running them: the user's cache folder, else the temp folder.
 * Called when an enforcing executor is created, so a host where neither works fails then, not at a command.
 * @param bwrapPath for the error
 * @throws BubblewrapUnavailableError when no such folder can be made
 */
export function gatedCopiesFolder(bwrapPath: string): string {
  if (folder) return folder;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  for (const parent of [path.join(cache, "skillgraph"), os.tmpdir()]) {
    try {
      mkdirSync(parent, { recursive: true, mode: 0o700 });
      if (!allowsExec(realpathSync(parent))) continue;
      sweepStale(parent);
      folder = mkdtempSync(path.join(parent, `gated-${process.pid}-`));
      break;
    } catch {
      // not writable here: the next candidate
    }
  }
  if (!folder)
    throw new BubblewrapUnavailableError({
      bwrapPath,
      message:
        "exec enforcement: no folder on an exec-allowed mount for the gated programs' copies (the cache and temp folders are noexec or not writable)",
    });
  const made = folder;
  process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  return made;
}

/**
 * The private copy of `hostFile`, made once per file version (device, inode, size, change time) and process. The file
 * is read through one descriptor opened without following symlinks, so what is copied is what was checked.
 */
export function gatedProgramCopy(hostFile: string): GatedProgramCopy {
  const source = openSync(hostFile, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(source);
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeMs}`;
    const known = copies.get(key);
    if (known) return known;
    const target = path.join(gatedCopiesFolder("bwrap"), `${copies.size}-${path.basename(hostFile)}`);
    const out = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    let script = false;
    try {
      const buffer = Buffer.alloc(1 << 20);
      let offset = 0;
      for (;;) {
        const read = readSync(source, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        if (offset === 0) script = buffer.subarray(0, 2).toString("latin1") === "#!";
        writeSync(out, buffer, 0, read);
        offset += read;
      }
      fchmodSync(out, script ? 0o555 : 0o111);
    } finally {
      closeSync(out);
    }
    const copy = { path: target, script };
    copies.set(key, copy);
    return copy;
  } finally {
    closeSync(source);
  }
}
