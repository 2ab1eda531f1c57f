import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";
import type { SkillMetadata } from "../skill/skill-types.js";
import type {
  ReadSkillFileOptions,
  SkillCatalog,
  SkillFileContent,
  SkillFileEntry,
  SkillViewOptions,
} from "./registry-types.js";
import { suggestNames } from "./suggest-names.js";

/**
 * A filtered catalog over another (only / exclude / disabled). It reads the parent's current snapshot on every call,
 * so it follows reloads, and never changes the parent or any other view.
 */
export function createCatalogView(parent: SkillCatalog, options: SkillViewOptions): SkillCatalog {
  const only = options.only ? new Set(options.only) : undefined;
  const hidden = new Set([...(options.exclude ?? []), ...(options.disabled ?? [])]);
  const visible = (name: string) => (!only || only.has(name)) && !hidden.has(name);
  let cachedVersion = -1;
  let cachedList: SkillMetadata[] = [];

  const view: SkillCatalog = {
    get version() {
      return parent.version;
    },
    list() {
      if (cachedVersion !== parent.version) {
        cachedList = parent.list().filter((skill) => visible(skill.name));
        cachedVersion = parent.version;
      }
      return cachedList;
    },
    get(name) {
      return visible(name) ? parent.get(name) : undefined;
    },
    has(name) {
      return visible(name) && parent.has(name);
    },
    readBody(name) {
      return visible(name) ? parent.readBody(name) : Promise.reject(notFound(name));
    },
    listFiles(name): Promise<SkillFileEntry[]> {
      return visible(name) ? parent.listFiles(name) : Promise.reject(notFound(name));
    },
    readFile(name, path, fileOptions?: ReadSkillFileOptions): Promise<SkillFileContent> {
      return visible(name) ? parent.readFile(name, path, fileOptions) : Promise.reject(notFound(name));
    },
    search(query, searchOptions: SearchOptions = {}): SearchResult[] {
      const limit = searchOptions.limit ?? 10;
      // Ask the parent for enough hits that filtering still leaves `limit` of them.
      const wide = parent.search(query, {
        ...searchOptions,
        limit: only ? Number.MAX_SAFE_INTEGER : limit + hidden.size,
      });
      return wide.filter((hit) => visible(hit.name)).slice(0, limit);
    },
    async searchAsync(query, searchOptions: SearchOptions = {}): Promise<SearchResult[]> {
      const limit = searchOptions.limit ?? 10;
      const wide = await parent.searchAsync(query, {
        ...searchOptions,
        limit: only ? Number.MAX_SAFE_INTEGER : limit + hidden.size,
      });
      return wide.filter((hit) => visible(hit.name)).slice(0, limit);
    },
    view(more) {
      return createCatalogView(view, more);
    },
  };
  const notFound = (name: string) =>
    new SkillNotFoundError({
      skillName: name,
      suggestions: suggestNames(
        name,
        view.list().map((skill) => skill.name),
      ),
    });
  return view;
}
