import type { SkillCatalog } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions, SkillsInvocationOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState } from "../state/skills-state.js";

/** Catalog views narrowed by only/exclude/disabled, memoised by their narrowing (cleared past 256 entries). */
export class CatalogViews {
  private readonly views = new Map<string, SkillCatalog>();

  constructor(private readonly options: ResolvedSkillsRuntimeOptions) {}

  /** This agent's catalog for one invocation: options' only/exclude, the invocation's narrowing, and the thread's disabled skills. */
  catalogFor(state: AgentSkillsState, invocation: SkillsInvocationOptions | undefined): SkillCatalog {
    const only = intersect(this.options.only, invocation?.only);
    const exclude = [...this.options.exclude, ...(invocation?.exclude ?? [])];
    const disabled = state.disabled;
    if (!only && exclude.length === 0 && disabled.length === 0) return this.options.skills;
    const key = JSON.stringify([only ?? null, [...exclude].sort(), disabled]);
    let view = this.views.get(key);
    if (!view) {
      if (this.views.size > 256) this.views.clear();
      view = this.options.skills.view({ only, exclude, disabled });
      this.views.set(key, view);
    }
    return view;
  }
}

function intersect(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const keep = new Set(b);
  return a.filter((name) => keep.has(name));
}
