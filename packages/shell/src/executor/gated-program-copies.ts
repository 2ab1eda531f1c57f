// The real files of gated programs, as the exec-broker runs them: a private copy per file, executable but not readable
// (mode 0111), so the kernel marks each process running one non-dumpable and nothing in the sandbox can reach the
// real program through /proc/PID/exe, /proc/PID/mem or ptrace. A script stays readable (0555): its interpreter reads it.
import {
  closeSync,
  fchmodSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeSync,
  constants,
} from "node:fs";
import os from "node:os";
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

function copiesFolder(): string {
  if (folder) return folder;
  folder = mkdtempSync(path.join(os.tmpdir(), "skillgraph-gated-"));
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
    const target = path.join(copiesFolder(), `${copies.size}-${path.basename(hostFile)}`);
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
