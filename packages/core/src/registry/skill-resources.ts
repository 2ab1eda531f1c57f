import { lstat, open, readdir, realpath } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { SkillPathError } from "../errors/skill-path-error.js";
import type { SkillFileContent, SkillFileEntry } from "./registry-types.js";

/** Default cap on one resource file read (256 KiB). */
export const DEFAULT_MAX_RESOURCE_BYTES = 256 * 1024;
/** At most this many files are listed for one skill. */
export const MAX_LISTED_FILES = 1000;

/** Checks a model-supplied relative path before it touches the file system; returns the normalised relative path. */
export function checkRelativePath(skillName: string, requested: string): string {
  const refuse = (reason: string, message: string): never => {
    throw new SkillPathError({ skillName, requestedPath: requested, reason, message: `${message} (skill '${skillName}', path '${requested.replace(/\0/g, "\\0")}')` });
  };
  if (requested.includes("\0")) refuse("nul-byte", "path contains a NUL byte");
  if (requested.trim() === "") refuse("not-found", "path is empty");
  if (isAbsolute(requested) || /^[a-zA-Z]:[\\/]/.test(requested) || requested.startsWith("\\")) refuse("absolute", "absolute paths are not allowed; give a path relative to the skill folder");
  const normal = normalize(requested.replace(/\\/g, "/"));
  if (normal === ".." || normal.startsWith(`..${sep}`) || normal.split(sep).includes("..")) refuse("traversal", "path leaves the skill folder");
  return normal.split(sep).join("/");
}

/** Lists the files of a skill folder (excluding SKILL.md, nested skills' folders, dot-files and symlinks that lead outside). */
export async function listSkillFiles(skillDir: string): Promise<SkillFileEntry[]> {
  const rootReal = await realpath(skillDir);
  const files: SkillFileEntry[] = [];
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (depth > 8 || files.length >= MAX_LISTED_FILES) return;
    let dirents;
    try {
      dirents = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (dirent.name.startsWith(".") || dirent.name === "node_modules") continue;
      const full = join(folder, dirent.name);
      const rel = relative(skillDir, full).split(sep).join("/");
      if (depth === 0 && (rel === "SKILL.md" || rel === "skill.md")) continue;
      let target = full;
      if (dirent.isSymbolicLink()) {
        try {
          target = await realpath(full);
        } catch {
          continue;
        }
        if (!isInside(rootReal, target)) continue;
      }
      const info = await lstat(target).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) {
        const hasSkill = await lstat(join(target, "SKILL.md")).then(() => true, () => false);
        if (!hasSkill) await walk(full, depth + 1);
      } else if (info.isFile()) {
        files.push({ path: rel, size: info.size });
      }
    }
  };
  await walk(skillDir, 0);
  return files;
}

/** Reads one resource file of a skill, confined to the skill folder, size-capped, text only. */
export async function readSkillResource(skillName: string, skillDir: string, requested: string, maxBytes = DEFAULT_MAX_RESOURCE_BYTES): Promise<SkillFileContent> {
  const rel = checkRelativePath(skillName, requested);
  const refuse = (reason: string, message: string): never => {
    throw new SkillPathError({ skillName, requestedPath: requested, reason, message: `${message} (skill '${skillName}', path '${requested}')` });
  };
  const full = join(skillDir, rel);
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    return refuse("not-found", "no such file in the skill folder");
  }
  const rootReal = await realpath(skillDir);
  if (!isInside(rootReal, real)) refuse("symlink-escape", "path resolves outside the skill folder (symlink)");
  const info = await lstat(real);
  if (!info.isFile()) refuse("not-a-file", info.isDirectory() ? "path is a folder; use list_skill_files" : "path is not a regular file");
  if (info.size > maxBytes) refuse("too-large", `file is ${info.size} bytes, over the ${maxBytes}-byte limit`);
  // O_NONBLOCK guards against a file swapped for a FIFO between the checks and the open.
  const handle = await open(real, "r");
  try {
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) refuse("too-large", `file grew over the ${maxBytes}-byte limit while reading`);
    const bytes = buffer.subarray(0, bytesRead);
    if (isBinary(bytes)) refuse("binary", "file is binary; only text files can be read");
    return { path: rel, size: bytesRead, content: bytes.toString("utf8") };
  } finally {
    await handle.close();
  }
}

/** True when `child` is `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Heuristic: NUL bytes or invalid UTF-8 in the first 8 KiB mean binary. */
export function isBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length < bytes.length ? trimPartialUtf8(head) : head);
    return false;
  } catch {
    return true;
  }
}

function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const byte = bytes[end - i]!;
    if ((byte & 0xc0) === 0xc0) return bytes.subarray(0, end - i);
    if ((byte & 0x80) === 0) break;
  }
  return bytes;
}
