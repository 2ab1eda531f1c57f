import { constants } from "node:fs";
import { lstat, mkdir, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../../io/cli-error.js";

/** What a copy did: files and folders copied, and what it skipped (symlinks, never followed; anything else odd). */
export interface CopyReport {
  files: number;
  folders: number;
  skipped: string[];
}

/** Entries (files and folders together) copied at most for one skill. */
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Copies a skill folder into `target` (which must not exist) without following symlinks: each file is opened with
 * O_NOFOLLOW and read from that descriptor, each folder is checked with lstat; symlinks, FIFOs and devices are skipped
 * and reported. Bounded: 2000 entries (files and folders together) and 64 MiB.
 */
export async function copySkillFolder(source: string, target: string): Promise<CopyReport> {
  const report: CopyReport = { files: 0, folders: 0, skipped: [] };
  let bytes = 0;
  const count = () => {
    if (report.files + report.folders > MAX_ENTRIES)
      throw new CliError(`more than ${MAX_ENTRIES} files and folders in the skill`);
  };
  const walk = async (from: string, to: string, relative: string) => {
    await mkdir(to);
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      const src = join(from, entry.name);
      const stats = await lstat(src);
      if (stats.isSymbolicLink()) {
        report.skipped.push(`${path} (symlink, not followed)`);
      } else if (stats.isDirectory()) {
        report.folders++;
        count();
        await walk(src, join(to, entry.name), path);
      } else if (stats.isFile()) {
        report.files++;
        count();
        const input = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW);
        try {
          const opened = await input.stat();
          if (!opened.isFile()) {
            report.skipped.push(`${path} (changed while copying)`);
            continue;
          }
          bytes += opened.size;
          if (bytes > MAX_BYTES) throw new CliError(`the skill is larger than ${MAX_BYTES} bytes`);
          const data = await input.readFile();
          const output = await open(
            join(to, entry.name),
            constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
            opened.mode & 0o755,
          );
          try {
            await output.writeFile(data);
          } finally {
            await output.close();
          }
        } finally {
          await input.close();
        }
      } else {
        report.skipped.push(`${path} (not a regular file)`);
      }
    }
  };
  await walk(source, target, "");
  return report;
}
