import type { SkillCatalog } from "../internal/core.js";

const viewIds = new WeakMap<SkillCatalog, number>();
let nextViewId = 0;

/** A process-wide id for a catalog object, stable for its lifetime (keys per-view caches). */
export function viewKey(catalog: SkillCatalog): string {
  let id = viewIds.get(catalog);
  if (id === undefined) {
    id = nextViewId++;
    viewIds.set(catalog, id);
  }
  return String(id);
}
