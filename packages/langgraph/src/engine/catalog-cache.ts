// Per-catalog caches of the engine: the narrowed catalog views, what one view version yields (skills prompt section,
// tool index, skills tools), skill bodies and files, and the tools the runtime serves itself.
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createSkillsPromptRenderer, type SkillCatalog, type SkillMetadata } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions, SkillsInvocationOptions } from "../options/skills-runtime-options.js";
import type { HistoryIndex } from "../repair/history-index.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { CALL_SKILL_TOOL, buildCallSkillTool } from "../tools/call-skill-tool/index.js";
import { DISABLE_SKILL, buildDisableSkillTool } from "../tools/disable-skill/index.js";
import { LIST_SKILL_FILES, buildListSkillFilesTool } from "../tools/list-skill-files/index.js";
import { READ_SKILL_FILE, buildReadSkillFileTool } from "../tools/read-skill-file/index.js";
import { READ_SKILL, buildReadSkillTool } from "../tools/read-skill/index.js";
import { SEARCH_SKILLS, buildSearchSkillsTool } from "../tools/search-skills/index.js";

/** The engine's shared parts that its request, gate and tool helpers read. */
export interface EngineContext {
  readonly options: ResolvedSkillsRuntimeOptions;
  readonly agentId: string;
  readonly versions: VersionCaches;
  readonly bodies: BodyCache;
  readonly hookTools: ReadonlyMap<string, HookTool>;
  readonly servedTools: readonly StructuredToolInterface[];
  /** Facts of the histories sent to the model (per thread, extended call by call). */
  readonly requestHistory: HistoryIndex;
  /** Facts of the threads' stored histories (state), which replies are settled against. */
  readonly threadHistory: HistoryIndex;
}

/** Catalog views narrowed by only/exclude/disabled, memoised by their narrowing (cleared past 256 entries). */
export class CatalogViews {
  private readonly views = new Map<string, SkillCatalog>();

  constructor(private readonly options: ResolvedSkillsRuntimeOptions) {}

  /** This agent's catalog for one invocation: options' only/exclude, the invocation's narrowing, the thread's and the app's disabled skills. */
  catalogFor(state: AgentSkillsState, invocation: SkillsInvocationOptions | undefined): SkillCatalog {
    const only = intersect(this.options.only, invocation?.only);
    const exclude = [...this.options.exclude, ...(invocation?.exclude ?? [])];
    const app = this.options.disabledSkills;
    const disabled = app.size === 0 ? state.disabled : [...new Set([...state.disabled, ...app])].sort();
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
    this.render = sharedRenderer(options.prompt);
  }

  /** The cache for `catalog`'s current version, built on first use. */
  cacheFor(catalog: SkillCatalog): VersionCache {
    let cached = this.perView.get(catalog);
    if (cached && cached.version === catalog.version) return cached;
    const skills = catalog.list();
    const rendered = this.render(skills);
    const skillsTools = sharedSkillsTools(skills, this.options);
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

/**
 * Renderers shared by every engine with the same list settings: a renderer keeps its text per skills list (the
 * registry hands out one list per generation), so agents made one after another over one registry render it once.
 * Settings with a token counter (a function) are not shared.
 */
const renderers = new Map<string, ReturnType<typeof createSkillsPromptRenderer>>();

function sharedRenderer(prompt: ResolvedSkillsRuntimeOptions["prompt"]): ReturnType<typeof createSkillsPromptRenderer> {
  if (prompt?.budget?.countTokens) return createSkillsPromptRenderer(prompt);
  const key = JSON.stringify(prompt ?? null);
  let renderer = renderers.get(key);
  if (!renderer) {
    if (renderers.size >= 16) renderers.clear();
    renderer = createSkillsPromptRenderer(prompt);
    renderers.set(key, renderer);
  }
  return renderer;
}

/** The skills tools per skills list (one per registry generation and view) and tool settings, shared by engines. */
const skillsToolsByList = new WeakMap<readonly SkillMetadata[], Map<string, StructuredToolInterface[]>>();

function sharedSkillsTools(
  skills: readonly SkillMetadata[],
  options: ResolvedSkillsRuntimeOptions,
): StructuredToolInterface[] {
  const key = JSON.stringify([
    options.enumThreshold,
    options.allowDisableSkill,
    options.disableScope,
    options.toolExposure,
  ]);
  let byKey = skillsToolsByList.get(skills);
  if (!byKey) {
    byKey = new Map();
    skillsToolsByList.set(skills, byKey);
  }
  let tools = byKey.get(key);
  if (!tools) {
    tools = buildSkillsTools(
      skills.map((skill) => skill.name),
      options,
    );
    byKey.set(key, tools);
  }
  return tools;
}

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
export function buildSkillToolIndex(
  skills: readonly SkillMetadata[],
  options: ResolvedSkillsRuntimeOptions,
): SkillToolIndex {
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

/** Skill bodies by `name@hash`, least recently used dropped first; bodies never go into graph state. */
export class BodyCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity = 64) {}

  /** The cached body for this exact hash, if any. */
  peek(name: string, hash: string): string | undefined {
    return this.entries.get(`${name}@${hash}`);
  }

  /** The body of the catalog's current version of `name` (read once per hash). */
  async current(catalog: SkillCatalog, name: string, hash: string): Promise<string> {
    const key = `${name}@${hash}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const body = await catalog.readBody(name);
    this.remember(key, body);
    return body;
  }

  /**
   * A reference file of a loaded skill, read through the registry's confined reader (size-capped, binary refused),
   * cached per catalog version; a file that cannot be read any more gives a note instead of throwing.
   */
  async file(catalog: SkillCatalog, name: string, path: string, maxBytes: number): Promise<string> {
    const key = `file\u0000${catalog.version}\u0000${name}\u0000${path}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    let text: string;
    try {
      const file = await catalog.readFile(name, path, { maxBytes });
      text = file.size > maxBytes ? `[File '${path}' is over the ${maxBytes}-byte limit.]` : file.content;
    } catch (error) {
      text = `[File '${path}' of skill '${name}' cannot be read now: ${(error as Error).message}]`;
    }
    this.remember(key, text);
    return text;
  }

  private remember(key: string, value: string): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** The model-facing skills tools for the visible skill `names` (disable_skill and call_skill_tool only when enabled). */
export function buildSkillsTools(names: string[], options: ResolvedSkillsRuntimeOptions): StructuredToolInterface[] {
  const threshold = options.enumThreshold;
  const skillsTools = [
    buildReadSkillTool(names, threshold),
    buildReadSkillFileTool(names, threshold),
    buildSearchSkillsTool(),
    buildListSkillFilesTool(names, threshold),
  ];
  if (options.allowDisableSkill) skillsTools.push(buildDisableSkillTool(names, threshold, options.disableScope));
  if (options.toolExposure === "dispatcher") skillsTools.push(buildCallSkillTool());
  return skillsTools;
}

/** A hook-provided tool and the index of the hook that provides it. */
export interface HookTool {
  hook: number;
  tool: StructuredToolInterface;
}

/** Every tool the interceptor may have to run itself (pool, skillTools, hook tools), plus the hook tools by name. */
export function collectServedTools(options: ResolvedSkillsRuntimeOptions): {
  servedTools: StructuredToolInterface[];
  hookTools: Map<string, HookTool>;
} {
  const hookTools = new Map<string, HookTool>();
  const served = new Map<string, StructuredToolInterface>();
  for (const tool of options.tools) served.set(tool.name, tool);
  for (const tools of Object.values(options.skillTools)) for (const tool of tools) served.set(tool.name, tool);
  options.hooks.forEach((hook, hookIndex) => {
    for (const tool of hook.tools) {
      hookTools.set(tool.name, { hook: hookIndex, tool });
      served.set(tool.name, tool);
    }
  });
  return { servedTools: [...served.values()], hookTools };
}

/** Names of every model-facing skills tool. */
export const SKILLS_TOOL_NAMES = [
  READ_SKILL,
  READ_SKILL_FILE,
  SEARCH_SKILLS,
  LIST_SKILL_FILES,
  DISABLE_SKILL,
  CALL_SKILL_TOOL,
] as const;

/** Whether `name` is one of the model-facing skills tools. */
export function isSkillsToolName(name: string): boolean {
  return (SKILLS_TOOL_NAMES as readonly string[]).includes(name);
}
