import { resolve } from "node:path";
import { createLayeredRegistry } from "./create-skill-registry.js";
import type { SkillDiagnostic } from "../skill/skill-types.js";
import type { SkillSource } from "../sources/skill-source.js";

/** Options of `buildRegistrySnapshot`. */
export interface BuildRegistrySnapshotOptions {
  /** The sources the deployed registry will use (same ids, so the same absolute folders). */
  sources: SkillSource[];
  /** Snapshot file to write. */
  out: string;
  /** Must match the deployed registry's `strict`. @default false */
  strict?: boolean;
  /** Must match the deployed registry's `maxSkillMdBytes`. @default 1048576 */
  maxSkillMdBytes?: number;
}

/** What `buildRegistrySnapshot` wrote. */
export interface BuiltRegistrySnapshot {
  file: string;
  bytes: number;
  skills: number;
  diagnostics: SkillDiagnostic[];
}

/**
 * Loads every folder source from its files and writes a registry snapshot to ship with a deployment (container image,
 * serverless bundle): pass the same path as `createSkillRegistry({ snapshot })` there. Files copied into an image get
 * new inodes and times, so the registry then checks each file's content hash instead of its stat: it still reads each
 * SKILL.md once but parses none that are unchanged.
 * @example await buildRegistrySnapshot({ sources: [skillsFromDirectory("./skills")], out: "dist/skills.snapshot.json" });
 */
export async function buildRegistrySnapshot(options: BuildRegistrySnapshotOptions): Promise<BuiltRegistrySnapshot> {
  const registry = await createLayeredRegistry({
    sources: options.sources,
    strict: options.strict ?? false,
    maxSkillMdBytes: options.maxSkillMdBytes ?? 1024 * 1024,
    snapshot: false,
  });
  const file = resolve(options.out);
  const bytes = await registry.writeSnapshot(file);
  return { file, bytes, skills: registry.list().length, diagnostics: registry.diagnostics() };
}
