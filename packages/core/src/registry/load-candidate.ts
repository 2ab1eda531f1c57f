import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { splitFrontmatter } from "../skill/split-frontmatter.js";
import { SkillLoadError } from "../errors/skill-load-error.js";
import { loadSkill, loadSkillFromText } from "../skill/load-skill.js";
import type { SkillOrigin } from "../skill/skill-types.js";
import type { SkillCandidate, SkillSource } from "../sources/skill-source.js";
import type { LoadedCandidate } from "./registry-snapshot.js";

/** Settings the registry passes to every load. */
export interface LoadSettings {
  strict: boolean;
  maxBytes: number;
}

/** Loads one candidate; a skill that cannot load (or is refused as strict) becomes a `refused` entry, never a throw. */
export async function loadCandidate(candidate: SkillCandidate, source: SkillSource, settings: LoadSettings): Promise<LoadedCandidate> {
  const origin: SkillOrigin = { sourceId: source.id, layer: source.layer, kind: source.kind };
  try {
    const skill =
      candidate.kind === "disk"
        ? await loadSkill(candidate.dir, { origin, strict: settings.strict, maxBytes: settings.maxBytes, root: candidate.root })
        : loadSkillFromText(candidate.text, { origin, strict: settings.strict });
    const { body, ...metadata } = skill;
    return { candidate, sourceId: source.id, metadata, refused: [], body };
  } catch (error) {
    if (SkillLoadError.isInstance(error) && error instanceof SkillLoadError) {
      return { candidate, sourceId: source.id, metadata: undefined, refused: error.diagnostics, body: undefined };
    }
    const path = candidate.kind === "disk" ? candidate.file : `${source.id}/${candidate.key}`;
    const message = SkillgraphError.isInstance(error) || error instanceof Error ? error.message : String(error);
    return { candidate, sourceId: source.id, metadata: undefined, refused: [{ code: "skill-load-failed", severity: "error", message: `${path}: ${message}`, path }], body: undefined };
  }
}

/** Reads a loaded skill's body again from where it lives (disk or code). */
export async function readCandidateBody(entry: LoadedCandidate, settings: LoadSettings): Promise<string> {
  const { candidate } = entry;
  const origin = entry.metadata?.origin ?? { sourceId: entry.sourceId, layer: "explicit" as const, kind: candidate.kind === "disk" ? ("directory" as const) : ("code" as const) };
  if (candidate.kind === "code") return loadSkillFromText(candidate.text, { origin, strict: false }).body;
  const skill = await loadSkill(candidate.dir, { origin, strict: false, maxBytes: settings.maxBytes, root: candidate.root });
  return skill.body;
}

/** Reads a skill's body synchronously for search indexing (text after the frontmatter). A file that is no longer a
 * regular file under the size cap (swapped for a FIFO, grown) indexes as empty rather than blocking or bloating. */
export function readCandidateBodySync(entry: LoadedCandidate, maxBytes: number): string {
  const { candidate } = entry;
  let text: string;
  if (candidate.kind === "code") text = candidate.text;
  else {
    let fd: number | undefined;
    try {
      fd = openSync(candidate.file, constants.O_RDONLY | constants.O_NONBLOCK);
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
