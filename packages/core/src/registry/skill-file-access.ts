import { z } from "zod";
import { parseOptions } from "../errors/parse-options.js";
import { SkillPathError } from "../errors/skill-path-error.js";
import type { RemoteSkillCandidate } from "../sources/skill-source.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { ReadSkillFileOptions, SkillFileContent, SkillFileEntry } from "./registry-types.js";
import {
  checkRelativePath,
  DEFAULT_MAX_RESOURCE_BYTES,
  listSkillFiles,
  readSkillResource,
  type SkillResourceRules,
} from "./skill-resources.js";

// Level 3 of a loaded skill, whatever it was loaded from: a folder (confined, race-free reads), code (its `files`, from
// memory) or a store (listed first, then fetched).

/** Lists a skill's files (level 3). */
export async function listCandidateFiles(entry: LoadedCandidate): Promise<SkillFileEntry[]> {
  if (entry.candidate.kind === "code") {
    return Object.entries(entry.candidate.files)
      .map(([path, content]) => ({ path, size: Buffer.byteLength(content) }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
  }
  if (entry.candidate.kind === "remote") {
    const files = await entry.candidate.listFiles();
    return files.map(({ path, size }) => ({ path, size })).sort((a, b) => (a.path < b.path ? -1 : 1));
  }
  return listSkillFiles(entry.candidate.dir, resourceRules(entry));
}

/** Reads one of a skill's files (level 3); `options.maxBytes` is checked first (InvalidOptionsError). */
export async function readCandidateFile(
  name: string,
  entry: LoadedCandidate,
  relativePath: string,
  options: ReadSkillFileOptions,
): Promise<SkillFileContent> {
  if (entry.candidate.kind === "code") {
    const rel = checkRelativePath(name, relativePath);
    const content = entry.candidate.files[rel];
    if (content === undefined)
      throw new SkillPathError({
        skillName: name,
        requestedPath: relativePath,
        reason: "not-found",
        message: `no such file in skill '${name}': ${relativePath}`,
      });
    const size = Buffer.byteLength(content);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
    if (size > maxBytes)
      throw new SkillPathError({
        skillName: name,
        requestedPath: relativePath,
        reason: "too-large",
        message: `file is ${size} bytes, over the ${maxBytes}-byte limit (skill '${name}', path '${relativePath}')`,
      });
    return { path: rel, size, content };
  }
  if (entry.candidate.kind === "remote")
    return readRemoteFile(name, entry.candidate, relativePath, options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES);
  return readSkillResource(name, entry.candidate.dir, relativePath, {
    maxBytes: options.maxBytes,
    rules: resourceRules(entry),
  });
}

const maxBytesError = "must be a non-negative integer number of bytes";
const maxBytesSchema = z.int({ error: maxBytesError }).min(0, { error: maxBytesError }).optional();

/** `readFile`'s `maxBytes`: a non-negative integer number of bytes (not NaN, Infinity or a fraction). */
export function checkMaxBytesOption(maxBytes: unknown): void {
  parseOptions(maxBytesSchema, maxBytes, "maxBytes");
}

/** Files of installed packages may be hard links into the package manager's store (pnpm); a folder's may not. */
function resourceRules(entry: LoadedCandidate): SkillResourceRules {
  return { refuseHardLinks: entry.metadata?.origin.kind !== "npm" };
}

/** Level 3 from a store: the path is checked like a folder's, the size from the listing before anything is fetched. */
async function readRemoteFile(
  name: string,
  candidate: RemoteSkillCandidate,
  relativePath: string,
  maxBytes: number,
): Promise<SkillFileContent> {
  const rel = checkRelativePath(name, relativePath);
  const listed = (await candidate.listFiles()).find((file) => file.path === rel);
  if (!listed)
    throw new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "not-found",
      message: `no such file in skill '${name}': ${relativePath}`,
    });
  const tooLarge = (size: number) =>
    new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "too-large",
      message: `file is ${size} bytes, over the ${maxBytes}-byte limit (skill '${name}', path '${relativePath}')`,
    });
  if (listed.size > maxBytes) throw tooLarge(listed.size);
  const content = await candidate.readFile(rel);
  if (typeof content !== "string")
    throw new SkillPathError({
      skillName: name,
      requestedPath: relativePath,
      reason: "not-found",
      message: `no such file in skill '${name}': ${relativePath}`,
    });
  const size = Buffer.byteLength(content);
  if (size > maxBytes) throw tooLarge(size);
  return { path: rel, size, content };
}
