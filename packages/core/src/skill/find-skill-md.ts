import { lstat, stat } from "node:fs/promises";
import { join } from "node:path";

/** File names probed in a skill folder, in order (as the reference does). */
export const SKILL_MD_NAMES = ["SKILL.md", "skill.md"] as const;

/** Result of looking for a skill folder's SKILL.md. */
export type SkillMdLookup =
  | { found: true; file: string; fileName: (typeof SKILL_MD_NAMES)[number] }
  | {
      found: false;
      /** Why nothing usable was found, when more can be said than "absent": a dangling symlink or a symlink loop. */
      detail?: string;
    };

/**
 * Finds `SKILL.md` (preferred) or `skill.md` in `dir`, following symlinks like the reference's `Path.exists()`:
 * a dangling or looping symlink counts as missing. Does not recurse and does not check the file type.
 */
export async function findSkillMd(dir: string): Promise<SkillMdLookup> {
  let detail: string | undefined;
  for (const fileName of SKILL_MD_NAMES) {
    const file = join(dir, fileName);
    try {
      await stat(file);
      return { found: true, file, fileName };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") detail ??= `${fileName} is a symlink loop`;
      else if (await isSymlink(file)) detail ??= `${fileName} is a dangling symlink`;
    }
  }
  return detail === undefined ? { found: false } : { found: false, detail };
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
