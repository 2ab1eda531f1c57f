import { createHash } from "node:crypto";
import { SkillgraphError } from "../internal/core.js";

/** Where skills live in a store unless told otherwise (namespace labels may not contain "."). */
export const DEFAULT_SKILLS_NAMESPACE: readonly string[] = ["skillgraph", "skills"];
/** Key of the manifest item in the skills namespace. */
export const MANIFEST_KEY = "manifest";
const MANIFEST_FORMAT = "skillgraph-store-manifest";

/** One published skill as the manifest lists it. */
export interface ManifestSkill {
  /** Content hash of its SKILL.md and files: a reader re-reads the skill only when this changes. */
  version: string;
  files: Array<{ path: string; size: number }>;
}

/** The manifest: one item a reader fetches per reload to learn what changed. */
export interface StoreManifest {
  format: typeof MANIFEST_FORMAT;
  /** Hash over every skill's version: unchanged means nothing changed. */
  version: string;
  skills: Record<string, ManifestSkill>;
}

/** Namespaces of the items of a skills namespace. */
export function storeNamespaces(namespace: readonly string[]) {
  return { root: [...namespace], skillMd: [...namespace, "skill-md"], files: [...namespace, "files"] };
}

/** Key of a skill's file item. */
export function fileItemKey(skillKey: string, path: string): string {
  return `${skillKey}/${path}`;
}

/** sha256 hex. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A manifest holding `skills`, with its version computed. */
export function buildManifest(skills: Record<string, ManifestSkill>): StoreManifest {
  const keys = Object.keys(skills).sort();
  const sorted: Record<string, ManifestSkill> = {};
  for (const key of keys) sorted[key] = skills[key]!;
  return {
    format: MANIFEST_FORMAT,
    version: sha256(keys.map((key) => `${key}\0${skills[key]!.version}`).join("\n")),
    skills: sorted,
  };
}

/** An empty manifest. */
export function emptyManifest(): StoreManifest {
  return buildManifest({});
}

/**
 * Checks a manifest read from a store (untrusted: any writer of the store could have put it there). Skill keys are
 * plain folder names; file paths are relative, without `..`, NUL or a leading `/`; sizes are byte counts.
 * @throws SkillgraphError (`store-manifest-invalid`) saying what is wrong.
 */
export function checkManifest(value: unknown, where: string): StoreManifest {
  const fail = (message: string): never => {
    throw new SkillgraphError({
      code: "store-manifest-invalid",
      message: `skills manifest at ${where} is malformed: ${message}`,
    });
  };
  if (typeof value !== "object" || value === null) return fail("not an object");
  const manifest = value as Record<string, unknown>;
  if (manifest.format !== MANIFEST_FORMAT) fail(`format is not '${MANIFEST_FORMAT}'`);
  if (typeof manifest.version !== "string") fail("no version");
  const skills = manifest.skills;
  if (typeof skills !== "object" || skills === null || Array.isArray(skills)) return fail("no skills map");
  for (const [key, entry] of Object.entries(skills as Record<string, unknown>)) {
    if (!isPlainName(key)) fail(`skill key '${key}' is not a plain folder name`);
    const skill = entry as Record<string, unknown> | null;
    if (typeof skill !== "object" || skill === null || typeof skill.version !== "string" || !Array.isArray(skill.files))
      fail(`skill '${key}' has no version or files`);
    for (const file of skill!.files as unknown[]) {
      const item = file as Record<string, unknown> | null;
      if (typeof item !== "object" || item === null || typeof item.path !== "string" || !isRelativePath(item.path))
        fail(`skill '${key}' lists a bad file path`);
      if (!Number.isSafeInteger(item!.size) || (item!.size as number) < 0) fail(`skill '${key}' lists a bad file size`);
    }
  }
  return value as StoreManifest;
}

/** A folder name usable as a skill key. */
export function isPlainName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}

function isRelativePath(path: string): boolean {
  return (
    path.length > 0 &&
    !path.startsWith("/") &&
    !path.includes("\0") &&
    !path.includes("\\") &&
    path.split("/").every((part) => part !== "" && part !== "." && part !== "..")
  );
}
