import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { O_DIRECTORY } from "./confined-open-at.js";
import { confinedList } from "./confined-list.js";
import { confinedReadFile } from "./confined-read.js";
import type { ConfinedFolder } from "./confined-types.js";
import type { ConfinedRoot } from "./confined-walk.js";
import { confinedMakeFolder, confinedRemoveEmptyFolder, confinedWriteFile } from "./confined-write.js";

export type {
  ConfinedEntry,
  ConfinedFailure,
  ConfinedFileRead,
  ConfinedFolder,
  ConfinedListOptions,
  ConfinedReadOptions,
  ConfinedRefusal,
} from "./confined-types.js";
export { confinedFolderIsRaceFree } from "./confined-open-at.js";
export { splitRelativePath } from "./confined-walk.js";

// Race-free file work inside a folder that someone else may be changing at the same time (a workspace a sandboxed
// command writes to, a skill folder). Every operation walks from the folder's open descriptor one name at a time with
// `O_NOFOLLOW`, checks the type of what it opened with `fstat`, and never resolves a path string again after a check:
// a symlink or FIFO swapped in between is refused, never followed or waited on.
//
// On Linux the walk goes through `/proc/self/fd/<fd>/<name>`, which is `openat(fd, name)`: the kernel resolves only
// `name` relative to the descriptor, whatever happened to the folder's path meanwhile. Where `/proc/self/fd` is
// missing (macOS, a container without /proc) the same checks run on path strings, which narrows the race to a
// window but cannot close it; `confinedFolderIsRaceFree()` tells which applies.
//
// The pieces: confined-open-at.ts (one name opened from a descriptor), confined-walk.ts (a path walked folder by
// folder), confined-read.ts, confined-write.ts and confined-list.ts (the operations), confined-types.ts.

/**
 * Opens a folder for confined file work. The folder's own path is trusted (it comes from the application, not the
 * model) and may go through symlinks; everything below it is not.
 * @param path absolute path of the folder
 * @example
 * const workspace = await openConfinedFolder("/tmp/ws");
 * const read = await workspace.readFile("out/report.md", { maxBytes: 1 << 20 });
 * await workspace.close();
 */
export async function openConfinedFolder(path: string): Promise<ConfinedFolder> {
  const root = await open(path, constants.O_RDONLY | O_DIRECTORY);
  const rootStats = await root.stat();
  if (!rootStats.isDirectory()) {
    await root.close();
    throw Object.assign(new Error(`'${path}' is not a folder`), { code: "ENOTDIR" });
  }

  const folder: ConfinedRoot = { handle: root, path };
  return {
    path,
    readFile: (relative, options) => confinedReadFile(folder, relative, options),
    writeFile: (relative, content, options) => confinedWriteFile(folder, relative, content, options),
    makeFolder: (relative) => confinedMakeFolder(folder, relative),
    removeEmptyFolder: (relative) => confinedRemoveEmptyFolder(folder, relative),
    list: (relative, options) => confinedList(folder, relative, options),
    close: () => root.close(),
  };
}

/**
 * Opens `folder`, runs `work` with it and closes it.
 * @example const read = await withConfinedFolder(dir, (folder) => folder.readFile("a.txt", { maxBytes: 1024 }));
 */
export async function withConfinedFolder<T>(
  folder: string,
  work: (confined: ConfinedFolder) => Promise<T>,
): Promise<T> {
  const confined = await openConfinedFolder(folder);
  try {
    return await work(confined);
  } finally {
    await confined.close();
  }
}
