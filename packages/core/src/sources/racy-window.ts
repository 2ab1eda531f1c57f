// The one window of the racy rule, for skill files (registry, snapshot entries) and folder listings (the folder walk).

/**
 * "Racy git" window: a SKILL.md (or a listed folder) whose mtime or ctime lies within this many nanoseconds before the moment it was read
 * (or before the snapshot was written) could have been edited again in the same clock tick without its stat changing,
 * so its entry is checked against the file's content hash instead of being trusted on stat alone. 2 s covers the
 * coarsest common file-system timestamps (FAT); on the fast path it costs nothing, a racy entry costs one read.
 */
export const RACY_WINDOW_NS = 2_000_000_000n;
