// A cpio archive in the "newc" format, the one the Linux kernel unpacks as an initramfs. Written here because the
// `cpio` program is not installed on every machine the tests run on; the format is a fixed header, the name and the
// data, each padded to 4 bytes, ended by a "TRAILER!!!" entry.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/** One entry of an archive: a folder, a symbolic link, or a file (its bytes, or a host file read when written). */
export type ArchiveEntry =
  | { kind: "dir"; mode?: number }
  | { kind: "symlink"; target: string }
  | { kind: "file"; mode: number; content: Buffer | string }
  | { kind: "host-file"; mode: number; source: string };

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

const pad4 = (length: number) => (4 - (length % 4)) % 4;
const hex8 = (value: number) => value.toString(16).padStart(8, "0");

function header(name: string, mode: number, size: number, ino: number): Buffer {
  const fields = [ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, Buffer.byteLength(name) + 1, 0];
  const text = `070701${fields.map(hex8).join("")}${name}\0`;
  return Buffer.concat([Buffer.from(text), Buffer.alloc(pad4(text.length))]);
}

function modeAndData(entry: ArchiveEntry): { mode: number; data: Buffer } {
  switch (entry.kind) {
    case "dir":
      return { mode: S_IFDIR | (entry.mode ?? 0o755), data: Buffer.alloc(0) };
    case "symlink":
      return { mode: S_IFLNK | 0o777, data: Buffer.from(entry.target) };
    case "file":
      return { mode: S_IFREG | entry.mode, data: Buffer.from(entry.content) };
    case "host-file":
      return { mode: S_IFREG | entry.mode, data: readFileSync(entry.source) };
  }
}

/**
 * Writes `entries` (archive paths without a leading slash, e.g. `usr/bin/node`) to `file` in the order given: a
 * folder must come before what it holds.
 */
export function writeNewcArchive(file: string, entries: ReadonlyMap<string, ArchiveEntry>): void {
  const fd = openSync(file, "w", 0o600);
  try {
    let ino = 1;
    for (const [name, entry] of entries) {
      const { mode, data } = modeAndData(entry);
      writeSync(fd, header(name, mode, data.length, ino));
      writeSync(fd, data);
      writeSync(fd, Buffer.alloc(pad4(data.length)));
      ino += 1;
    }
    writeSync(fd, header("TRAILER!!!", 0, 0, 0));
  } finally {
    closeSync(fd);
  }
}
