import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";

/** Which skill owns which tool, for one catalog snapshot and view. */
export interface SkillToolIndex {
  /** skill -> tools it unlocks (resolved allowed-tools + skillTools), sorted by name. */
  owned: Map<string, StructuredToolInterface[]>;
  /** tool name -> skills owning it. */
  owners: Map<string, string[]>;
  /** skill -> lower-cased tool names its `allowed-tools` declares (restrict mode). */
  declared: Map<string, Set<string>>;
  /** Every tool some skill may unlock, sorted by name (static exposure). */
  allOwned: StructuredToolInterface[];
}

/** The tool name an `allowed-tools` entry refers to: `Bash(git:*)` -> `Bash`. */
export function allowedToolName(entry: string): string {
  const paren = entry.indexOf("(");
  return (paren === -1 ? entry : entry.slice(0, paren)).trim();
}

/** Resolves every visible skill's `allowed-tools` against the registered tools, plus the `skillTools` map. */
export function buildSkillToolIndex(skills: readonly SkillMetadata[], options: ResolvedSkillsRuntimeOptions): SkillToolIndex {
  const pool = new Map(options.tools.map((tool) => [tool.name, tool]));
  const poolLower = new Map(options.tools.map((tool) => [tool.name.toLowerCase(), tool]));
  const owned = new Map<string, StructuredToolInterface[]>();
  const owners = new Map<string, string[]>();
  const declared = new Map<string, Set<string>>();
  const all = new Map<string, StructuredToolInterface>();
  const add = (skill: string, tool: StructuredToolInterface) => {
    const list = owned.get(skill) ?? [];
    if (!list.some((item) => item.name === tool.name)) list.push(tool);
    owned.set(skill, list);
    const who = owners.get(tool.name) ?? [];
    if (!who.includes(skill)) who.push(skill);
    owners.set(tool.name, who);
    all.set(tool.name, tool);
  };
  for (const skill of skills) {
    const names = new Set<string>();
    for (const entry of skill.allowedTools) {
      const name = allowedToolName(entry);
      if (!name) continue;
      names.add(name.toLowerCase());
      const tool = pool.get(name) ?? poolLower.get(name.toLowerCase());
      if (tool) add(skill.name, tool);
    }
    if (names.size > 0) declared.set(skill.name, names);
  }
  for (const [skill, tools] of Object.entries(options.skillTools)) for (const tool of tools) add(skill, tool);
  // Pool tools no visible skill claims stay gated (never unlockable) rather than silently always-on.
  for (const tool of options.tools) if (!owners.has(tool.name)) owners.set(tool.name, []);
  for (const list of owned.values()) list.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { owned, owners, declared, allOwned: [...all.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}
