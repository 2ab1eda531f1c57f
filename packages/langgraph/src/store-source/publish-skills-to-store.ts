import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { BaseStore } from "@langchain/langgraph";
import {
  createSkillRegistry,
  DEFAULT_MAX_RESOURCE_BYTES,
  SkillgraphError,
  SkillPathError,
  skillsFromDirectory,
  type SkillDiagnostic,
} from "@skillgraph/core";
import {
  buildManifest,
  checkManifest,
  DEFAULT_SKILLS_NAMESPACE,
  emptyManifest,
  fileItemKey,
  isPlainName,
  MANIFEST_KEY,
  sha256,
  storeNamespaces,
  type ManifestSkill,
} from "./store-layout.js";

/** Options of `publishSkillsToStore`. */
export interface PublishSkillsOptions {
  /** @default ["skillgraph", "skills"] */
  namespace?: readonly string[];
  /** Largest resource file published, in bytes (readers enforce their own cap too). @default 262144 */
  maxResourceBytes?: number;
  /** Refuse the publish when any skill breaks a spec rule; `false` publishes skills that load with diagnostics. @default true */
  strict?: boolean;
}

/** What `publishSkillsToStore` wrote. */
export interface PublishReport {
  /** Skill keys (folder names) written. */
  published: string[];
  /** Files left out: binary (only text is served at level 3). */
  skipped: Array<{ skill: string; path: string; reason: string }>;
  /** The manifest version after publishing. */
  version: string;
}

/**
 * Validates every skill under `folder` (strictly by default: any spec error refuses the whole publish, nothing is written) and
 * writes each to the store: its files, then its SKILL.md, then the manifest, so a reader never sees a manifest entry
 * whose items are missing. Files of an earlier version that are gone are deleted.
 * @throws SkillgraphError (`publish-invalid`) listing the problems when a skill is invalid or a file too large.
 * @example await publishSkillsToStore(PostgresStore.fromConnString(url), "./skills");
 */
export async function publishSkillsToStore(
  store: BaseStore,
  folder: string,
  options: PublishSkillsOptions = {},
): Promise<PublishReport> {
  const maxResourceBytes = options.maxResourceBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const spaces = storeNamespaces(options.namespace ?? DEFAULT_SKILLS_NAMESPACE);
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(folder)],
    strict: options.strict ?? true,
    snapshot: false,
  });
  const problems: string[] = registry
    .diagnostics()
    .filter((diagnostic: SkillDiagnostic) => diagnostic.severity === "error")
    .map((diagnostic) => diagnostic.message);
  for (const shadow of registry.shadowed())
    problems.push(`two skills are named '${shadow.name}': ${shadow.winner.file} and ${shadow.shadowed.file}`);
  const keys = new Map<string, string>();
  for (const skill of registry.list()) {
    const key = basename(skill.dir);
    if (!isPlainName(key)) problems.push(`${skill.dir}: folder name cannot be a store key`);
    const other = keys.get(key);
    if (other) problems.push(`two skill folders are named '${key}' (${other} and ${skill.dir})`);
    keys.set(key, skill.dir);
  }
  if (registry.list().length === 0 && problems.length === 0) problems.push(`no skill found under ${folder}`);

  const prepared: Array<{ key: string; text: string; files: Array<{ path: string; content: string; size: number }> }> =
    [];
  const skipped: PublishReport["skipped"] = [];
  for (const skill of registry.list()) {
    const key = basename(skill.dir);
    const text = await readFile(skill.file, "utf8");
    if (sha256(text) !== skill.hash) problems.push(`${skill.file} changed while publishing`);
    const files: Array<{ path: string; content: string; size: number }> = [];
    for (const entry of await registry.listFiles(skill.name)) {
      try {
        const read = await registry.readFile(skill.name, entry.path, { maxBytes: maxResourceBytes });
        files.push({ path: read.path, content: read.content, size: read.size });
      } catch (error) {
        if (SkillPathError.isInstance(error) && (error as SkillPathError).reason === "binary")
          skipped.push({ skill: key, path: entry.path, reason: "binary" });
        else problems.push((error as Error).message);
      }
    }
    prepared.push({ key, text, files });
  }
  if (problems.length > 0)
    throw new SkillgraphError({
      code: "publish-invalid",
      message: `nothing published from ${folder}:\n- ${problems.join("\n- ")}`,
    });

  const current = await store.get(spaces.root, MANIFEST_KEY);
  const manifest = current ? checkManifest(current.value, `store:${spaces.root.join("/")}`) : emptyManifest();
  const skills: Record<string, ManifestSkill> = { ...manifest.skills };
  for (const { key, text, files } of prepared) {
    const version = sha256([text, ...files.map((file) => `${file.path}\0${sha256(file.content)}`)].join("\n"));
    for (const file of files)
      await store.put(
        spaces.files,
        fileItemKey(key, file.path),
        { content: file.content, size: file.size, version },
        false,
      );
    await store.put(spaces.skillMd, key, { text, version }, false);
    const kept = new Set(files.map((file) => file.path));
    for (const old of skills[key]?.files ?? [])
      if (!kept.has(old.path)) await store.delete(spaces.files, fileItemKey(key, old.path));
    skills[key] = { version, files: files.map((file) => ({ path: file.path, size: file.size })) };
  }
  const next = buildManifest(skills);
  await store.put(spaces.root, MANIFEST_KEY, next as unknown as Record<string, unknown>, false);
  return { published: prepared.map((item) => item.key).sort(), skipped, version: next.version };
}
