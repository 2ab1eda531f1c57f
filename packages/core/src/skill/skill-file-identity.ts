import type { BigIntStats, Stats } from "node:fs";

/**
 * Identity of a SKILL.md on disk; a reload re-reads a file only when this changes. The one definition: sources, the
 * registry, snapshots and `loadSkillFile` all use it.
 */
export interface FileIdentity {
  mtimeMs: number;
  size: number;
  ino: number;
  /** Modification time in nanoseconds (decimal string: exact, JSON-safe). */
  mtimeNs: string;
  /** Status-change time in nanoseconds (decimal string): catches a same-tick edit that restored the mtime. */
  ctimeNs: string;
}

/** The millisecond part of a FileIdentity that `loadSkillFile` reports (from a plain, non-bigint stat). */
export type SkillFileIdentity = Pick<FileIdentity, "mtimeMs" | "size" | "ino">;

/** The identity fields of a plain stat result. */
export function identityFromStats(stats: Stats): SkillFileIdentity {
  return { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
}

/** The identity of a SKILL.md from a bigint stat (nanosecond times). */
export function identityFromBigStats(stats: BigIntStats): FileIdentity {
  return {
    mtimeMs: Number(stats.mtimeMs),
    size: Number(stats.size),
    ino: Number(stats.ino),
    mtimeNs: stats.mtimeNs.toString(),
    ctimeNs: stats.ctimeNs.toString(),
  };
}

/** Same file, unchanged: inode, size, and mtime and ctime to the nanosecond. */
export function sameFileIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}
