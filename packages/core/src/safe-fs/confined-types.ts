// The types of confined file work (see confined-folder.ts): what an operation gives back, why it refused, its options.

/** Why a confined operation refused a path. */
export type ConfinedRefusal =
  | "invalid-path"
  | "not-found"
  | "symlink"
  | "not-a-file"
  | "not-a-folder"
  | "too-large"
  | "exists"
  | "io-error";

/** A refusal with a sentence saying what was wrong with which path. */
export interface ConfinedFailure {
  ok: false;
  reason: ConfinedRefusal;
  /** The relative path the caller asked for. */
  path: string;
  message: string;
}

/** A file read inside a confined folder. */
export interface ConfinedFileRead {
  ok: true;
  path: string;
  bytes: Buffer;
  /** Size from fstat of the opened descriptor (the bytes read may be fewer when `headBytes` was given). */
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** One entry found by {@link ConfinedFolder.list}. */
export interface ConfinedEntry {
  /** `/`-separated path relative to the listed folder. */
  path: string;
  kind: "file" | "folder" | "symlink" | "other";
  /** Size and modification time of a file, from lstat at listing time (informational: re-checked when opened). */
  size?: number;
  mtimeMs?: number;
  /** Hard-link count of a file when over 1 (the same file has another name somewhere), from lstat at listing time. */
  links?: number;
}

/** Options of {@link ConfinedFolder.readFile}. */
export interface ConfinedReadOptions {
  /** Refuse files larger than this (checked on the descriptor before and while reading). */
  maxBytes: number;
  /** Read only the first bytes (the file may be larger than this, up to `maxBytes`). */
  headBytes?: number;
  /** Start reading at this byte of the file (with `headBytes`, read that many bytes from here). @default 0 */
  offset?: number;
  /**
   * Follow at most this many symlinks whose target stays inside the folder (resolved by name against the folder, then
   * walked again with O_NOFOLLOW, so a swap meanwhile is refused, never followed out). @default 0 (never follow)
   */
  followInsideLinks?: number;
  /** Refuse a file with more than one hard link (checked on the opened descriptor). @default false */
  refuseHardLinks?: boolean;
}

/** Options of {@link ConfinedFolder.list}. */
export interface ConfinedListOptions {
  /** Stop after this many entries (files, folders and others together). */
  maxEntries: number;
  /** Do not descend deeper than this many folders. @default 16 */
  maxDepth?: number;
  /** Skip entries whose name this returns true for (they are not descended into either). */
  skip?: (name: string, relativePath: string) => boolean;
}

/** A folder opened once, in which every file operation is confined (see confined-folder.ts). */
export interface ConfinedFolder {
  /** The path the folder was opened at (for messages only: operations never use it). */
  readonly path: string;
  /** Reads a regular file (never a symlink, FIFO, device or folder), size-capped. */
  readFile(relative: string, options: ConfinedReadOptions): Promise<ConfinedFileRead | ConfinedFailure>;
  /**
   * Writes a regular file, creating missing folders on the way (never through a symlink). An existing regular file is
   * replaced; an existing symlink, folder or FIFO is refused.
   */
  writeFile(
    relative: string,
    content: string | Uint8Array,
    options?: { mode?: number },
  ): Promise<{ ok: true; path: string } | ConfinedFailure>;
  /** Creates a folder (and missing parents) without following symlinks. */
  makeFolder(relative: string): Promise<{ ok: true; path: string } | ConfinedFailure>;
  /**
   * Removes a folder if it is empty, walking to it without following symlinks (`exists` when it has entries; a
   * symlink at its name is refused, never followed).
   */
  removeEmptyFolder(relative: string): Promise<{ ok: true; path: string } | ConfinedFailure>;
  /** Lists a sub-folder recursively without following symlinks (they are reported as `symlink`). */
  list(
    relative: string,
    options: ConfinedListOptions,
  ): Promise<{ ok: true; entries: ConfinedEntry[]; truncated: boolean } | ConfinedFailure>;
  /** Closes the folder's descriptor. */
  close(): Promise<void>;
}
