import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";

/** Identity of a SKILL.md on disk: a reload re-reads the file only when one of these changed. */
export interface SkillFileIdentity {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The identity fields of a stat result. */
export function identityFromStats(stats: Stats): SkillFileIdentity {
  return { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
}

/** Stats `file` (following symlinks) and returns its identity, or `undefined` when it is gone or unreadable. */
export async function statSkillFile(file: string): Promise<SkillFileIdentity | undefined> {
  try {
    return identityFromStats(await stat(file));
  } catch {
    return undefined;
  }
}

/** True when two identities describe the same unchanged file. */
export function sameSkillFileIdentity(a: SkillFileIdentity, b: SkillFileIdentity): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}
