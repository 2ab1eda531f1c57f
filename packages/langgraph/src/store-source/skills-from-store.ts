import type { BaseStore } from "@langchain/langgraph";
import type { RemoteSkillCandidate, SkillLayer, SkillSource, SourceScan } from "@skillgraph/core";
import { SkillLoadError } from "../internal/core.js";
import {
  checkManifest,
  DEFAULT_SKILLS_NAMESPACE,
  fileItemKey,
  MANIFEST_KEY,
  storeNamespaces,
  type StoreManifest,
} from "./store-layout.js";

/** Options of `skillsFromStore`. */
export interface StoreSourceOptions {
  /** Namespace the skills were published under. @default ["skillgraph", "skills"] */
  namespace?: readonly string[];
  /** Precedence layer. @default "project" */
  layer?: SkillLayer;
  /** Source id suffix, to tell several store sources apart. @default the namespace joined by "/" */
  id?: string;
}

/**
 * Skills published to a LangGraph `BaseStore` (`InMemoryStore`, `PostgresStore`, ...) by `publishSkillsToStore` or
 * `skillgraph publish`: many agent servers can share one registry. A reload reads one item (the manifest) and re-reads
 * a skill's SKILL.md only when its version changed; level-3 files are fetched on demand. Everything read is validated
 * by the registry like a folder's skill (size caps included).
 * @example createSkillRegistry({ sources: [skillsFromStore(PostgresStore.fromConnString(url))], watch: { pollMs: 5000 } })
 */
export function skillsFromStore(store: BaseStore, options: StoreSourceOptions = {}): SkillSource {
  const namespace = options.namespace ?? DEFAULT_SKILLS_NAMESPACE;
  const spaces = storeNamespaces(namespace);
  const label = namespace.join("/");
  let cached: { version: string; candidates: RemoteSkillCandidate[] } | undefined;

  const candidateFor = (key: string, entry: StoreManifest["skills"][string]): RemoteSkillCandidate => ({
    kind: "remote",
    key,
    version: entry.version,
    dirName: key,
    location: `store:${label}/${key}`,
    async readText() {
      const item = await store.get(spaces.skillMd, key);
      const text = item?.value.text;
      if (typeof text !== "string") {
        // Gone since the manifest was read (a publish in between): refused like a folder without SKILL.md.
        const message = `store:${label}/${key}: no SKILL.md item in the store`;
        const diagnostic = {
          code: "skill-md-missing",
          severity: "error" as const,
          message,
          path: `store:${label}/${key}`,
        };
        throw new SkillLoadError({ path: diagnostic.path, diagnostics: [diagnostic] });
      }
      return text;
    },
    async listFiles() {
      return entry.files.map((file) => ({ path: file.path, size: file.size }));
    },
    async readFile(path) {
      if (!entry.files.some((file) => file.path === path)) return undefined;
      const item = await store.get(spaces.files, fileItemKey(key, path));
      const content = item?.value.content;
      return typeof content === "string" ? content : undefined;
    },
  });

  return {
    id: `store:${options.id ?? label}`,
    layer: options.layer ?? "project",
    kind: "store",
    async scan(): Promise<SourceScan> {
      const item = await store.get(spaces.root, MANIFEST_KEY);
      if (!item) return { candidates: [], diagnostics: [] };
      const manifest = checkManifest(item.value, `store:${label}`);
      if (cached?.version !== manifest.version) {
        cached = {
          version: manifest.version,
          candidates: Object.entries(manifest.skills).map(([key, entry]) => candidateFor(key, entry)),
        };
      }
      return { candidates: cached.candidates, diagnostics: [] };
    },
  };
}
