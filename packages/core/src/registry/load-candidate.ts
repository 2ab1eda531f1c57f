import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { confinedFolderIsRaceFree } from "../safe-fs/confined-folder.js";
import { isInsideFolder } from "../safe-fs/is-inside-folder.js";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { splitFrontmatter } from "../skill/split-frontmatter.js";
import { SkillLoadError } from "../skill/skill-load-error.js";
import { loadSkill, loadSkillFromText } from "../skill/load-skill.js";
import { assembleSkill, sha256Hex } from "../skill/assemble-skill.js";
import { readListedSkillMd, readSkillMdFile, skillDirName } from "../skill/read-skill-file.js";
import type { SkillOrigin } from "../skill/skill-types.js";
import type { FileIdentity, RemoteSkillCandidate, SkillCandidate, SkillSource } from "../sources/skill-source.js";
import { RACY_WINDOW_NS } from "../sources/racy-window.js";
import { maxNs } from "../snapshot/snapshot-file.js";
import type { StoredCandidate } from "../snapshot/stored-candidate.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";

/** Settings the registry passes to every load. */
export interface LoadSettings {
  strict: boolean;
  maxBytes: number;
}

/**
 * What an earlier load of the same SKILL.md gave, a `LoadedCandidate` in memory or its `StoredCandidate` in a snapshot
 * file (the part both have): reused when the bytes hash the same.
 */
export type PreviousLoad = Pick<StoredCandidate, "hash" | "metadata" | "refused">;

/**
 * Loads one candidate; a skill that cannot load (or is refused as strict) becomes a `refused` entry, never a throw.
 * With `previous`, a file whose bytes hash the same as before is not parsed again (its earlier result is reused).
 */
export async function loadCandidate(
  candidate: SkillCandidate,
  source: SkillSource,
  settings: LoadSettings,
  previous?: PreviousLoad,
): Promise<LoadedCandidate> {
  const origin: SkillOrigin = { sourceId: source.id, layer: source.layer, kind: source.kind };
  const base = { candidate, sourceId: source.id };
  let hash: string | undefined;
  try {
    if (candidate.kind === "code") {
      const { body, ...metadata } = loadSkillFromText(candidate.text, { origin, strict: settings.strict });
      return { ...base, metadata, refused: [], body, hash: undefined, racy: false };
    }
    if (candidate.kind === "remote") {
      const text = await candidate.readText();
      if (typeof text !== "string") throw missingRemoteSkillMd(candidate.location);
      const size = Buffer.byteLength(text);
      if (size > settings.maxBytes) {
        const message = `${candidate.location}: SKILL.md is ${size} bytes, over the ${settings.maxBytes}-byte limit`;
        return {
          ...base,
          metadata: undefined,
          refused: [{ code: "file-too-large", severity: "error", message, path: candidate.location }],
          body: undefined,
          hash: undefined,
          racy: false,
        };
      }
      remoteTexts.set(candidate, text);
      const { body, ...metadata } = loadSkillFromText(text, {
        origin,
        strict: settings.strict,
        ...(candidate.dirName === undefined ? {} : { dirName: candidate.dirName }),
      });
      return { ...base, metadata, refused: [], body, hash: metadata.hash, racy: false };
    }
    const racy = isRacy(candidate.identity, currentTimeNs());
    const read =
      (await readListedSkillMd(candidate, settings.maxBytes)) ??
      (await readSkillMdFile(candidate.dir, { maxBytes: settings.maxBytes, root: candidate.root }));
    if (!read.ok)
      return { ...base, metadata: undefined, refused: read.diagnostics, body: undefined, hash: undefined, racy };
    hash = sha256Hex(read.bytes);
    if (previous && previous.hash === hash) {
      const metadata = previous.metadata && { ...previous.metadata, origin };
      return { ...base, metadata, refused: previous.refused, body: undefined, hash, racy };
    }
    const { body, ...metadata } = assembleSkill({
      text: read.text,
      bytes: read.bytes,
      hash,
      dir: read.dir,
      file: read.file,
      label: read.file,
      dirName: skillDirName(read.dir),
      origin,
      diagnostics: read.diagnostics,
      strict: settings.strict,
    });
    return { ...base, metadata, refused: [], body, hash, racy };
  } catch (error) {
    const racy = candidate.kind === "disk" && isRacy(candidate.identity, currentTimeNs());
    if (SkillLoadError.isInstance(error)) {
      return { ...base, metadata: undefined, refused: error.diagnostics, body: undefined, hash, racy };
    }
    const path =
      candidate.kind === "disk"
        ? candidate.file
        : candidate.kind === "remote"
          ? candidate.location
          : `${source.id}/${candidate.key}`;
    const message = SkillgraphError.isInstance(error) || error instanceof Error ? error.message : String(error);
    return {
      ...base,
      metadata: undefined,
      refused: [{ code: "skill-load-failed", severity: "error", message: `${path}: ${message}`, path }],
      body: undefined,
      hash,
      racy,
    };
  }
}

/** A remote source gave no SKILL.md text: refused like a folder without SKILL.md (`skill-md-missing`). */
function missingRemoteSkillMd(location: string): SkillLoadError {
  const message = `${location}: no SKILL.md text in the store`;
  return new SkillLoadError({
    path: location,
    diagnostics: [{ code: "skill-md-missing", severity: "error", message, path: location }],
  });
}

/** SKILL.md texts of remote candidates, kept for the lazily built search index (which reads bodies synchronously). */
const remoteTexts = new WeakMap<RemoteSkillCandidate, string>();

/** Wall-clock time in nanoseconds (the clock file-system timestamps come from). */
export function currentTimeNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** True when a file's last change is so close to `referenceNs` that a same-tick edit could hide behind an equal stat. */
export function isRacy(identity: FileIdentity, referenceNs: bigint): boolean {
  return referenceNs - maxNs(identity.mtimeNs, identity.ctimeNs) < RACY_WINDOW_NS;
}

/** Reads a loaded skill's body again from where it lives (disk or code). */
export async function readCandidateBody(entry: LoadedCandidate, settings: LoadSettings): Promise<string> {
  const { candidate } = entry;
  const origin = entry.metadata?.origin ?? {
    sourceId: entry.sourceId,
    layer: "explicit" as const,
    kind: candidate.kind === "disk" ? ("directory" as const) : ("code" as const),
  };
  if (candidate.kind === "code") return loadSkillFromText(candidate.text, { origin, strict: false }).body;
  if (candidate.kind === "remote") {
    const text = await candidate.readText();
    if (typeof text !== "string") throw missingRemoteSkillMd(candidate.location);
    return loadSkillFromText(text, { origin, strict: false }).body;
  }
  const skill = await loadSkill(candidate.dir, {
    origin,
    strict: false,
    maxBytes: settings.maxBytes,
    root: candidate.root,
  });
  return skill.body;
}

/** Reads a skill's body synchronously for search indexing (text after the frontmatter). A file that is no longer a
 * regular file under the size cap (swapped for a FIFO, grown), or a symlink now leading out of the source root,
 * indexes as empty rather than blocking, bloating or indexing an outside file. */
export function readCandidateBodySync(entry: LoadedCandidate, maxBytes: number): string {
  const { candidate } = entry;
  let text: string;
  if (candidate.kind === "code") text = candidate.text;
  else if (candidate.kind === "remote") text = remoteTexts.get(candidate) ?? "";
  else {
    let fd: number | undefined;
    try {
      fd = openInsideRoot(candidate.file, candidate.root);
      if (fd === undefined) return "";
      const info = fstatSync(fd);
      if (!info.isFile() || info.size > maxBytes) return "";
      text = readFileSync(fd, "utf8");
    } catch {
      return "";
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const split = splitFrontmatter(normalised);
  return split.ok ? split.body.trim() : normalised;
}

/**
 * Opens a SKILL.md for reading: without following a symlink in the common case; a SKILL.md that is a symlink is opened
 * and kept only when the descriptor's real path (on Linux `/proc/self/fd/N`) is inside the source root. Undefined when
 * it leads outside. Throws open errors.
 */
function openInsideRoot(file: string, root: string): number | undefined {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK;
  try {
    return openSync(file, flags | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
  }
  const fd = openSync(file, flags);
  let real: string;
  try {
    real = confinedFolderIsRaceFree() ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(file);
    if (isInsideFolder(real, realpathSync(root))) return fd;
  } catch {
    // unresolvable: refused below
  }
  closeSync(fd);
  return undefined;
}
