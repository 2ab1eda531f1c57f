import type { StructuredToolInterface } from "@langchain/core/tools";
import { createSkillsPromptRenderer, type SkillCatalog } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { buildSkillsTools } from "./build-skills-tools.js";
import { buildSkillToolIndex, type SkillToolIndex } from "./skill-tool-index.js";

/** What one catalog view's version yields: the skills prompt section, the tool index and the skills tools. */
export interface VersionCache {
  version: number;
  section: string;
  index: SkillToolIndex;
  skillsTools: StructuredToolInterface[];
  /** The skills tools a request binds: none when the view has no skills (nothing to read, search or list). */
  requestSkillsTools: StructuredToolInterface[];
}

/**
 * Per-view caches rebuilt only when the view's catalog version changes. Keyed weakly by the catalog object, so the
 * entry of a view that is dropped (CatalogViews clears its memo past 256 narrowings) is collected with it: a
 * long-running server with many per-request narrowings holds no more than the views still in use.
 */
export class VersionCaches {
  private readonly perView = new WeakMap<SkillCatalog, VersionCache>();
  private readonly render: ReturnType<typeof createSkillsPromptRenderer>;

  constructor(private readonly options: ResolvedSkillsRuntimeOptions) {
    this.render = createSkillsPromptRenderer(options.prompt);
  }

  /** The cache for `catalog`'s current version, built on first use. */
  cacheFor(catalog: SkillCatalog): VersionCache {
    let cached = this.perView.get(catalog);
    if (cached && cached.version === catalog.version) return cached;
    const skills = catalog.list();
    const names = skills.map((skill) => skill.name);
    const rendered = this.render(skills);
    const skillsTools = buildSkillsTools(names, this.options);
    cached = {
      version: catalog.version,
      section: skills.length === 0 ? "" : rendered.text,
      index: buildSkillToolIndex(skills, this.options),
      skillsTools,
      requestSkillsTools: skills.length === 0 ? [] : skillsTools,
    };
    this.perView.set(catalog, cached);
    return cached;
  }
}
