import { closeSync, openSync, readSync } from "node:fs";

/** The `#!` line of a file (without `#!`), read from its first 256 bytes; undefined when it has none. */
export function readShebang(file: string): string | undefined {
  const buffer = Buffer.alloc(256);
  const fd = openSync(file, "r");
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString("utf8");
    if (!text.startsWith("#!")) return undefined;
    return text.slice(2).split("\n")[0]?.trim();
  } finally {
    closeSync(fd);
  }
}
