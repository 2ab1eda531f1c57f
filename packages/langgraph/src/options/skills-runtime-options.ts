import type { StructuredToolInterface } from "@langchain/core/tools";
import type {
  LoadedSkillEntry,
  LoadMode,
  RenderSkillsPromptOptions,
  SkillCatalog,
  SkillDriftPolicy,
} from "../internal/core.js";
import type { SkillsToolHook } from "../hooks/skills-tool-hook.js";

/** How skill-owned tools reach the model: `dynamic` (listed once unlocked), `static` (all listed, execution gated), `dispatcher` (one `call_skill_tool`, byte-stable list). */
export type ToolExposure = "dynamic" | "static" | "dispatcher";

/** Where a loaded skill's body is shown to the model. */
export type BodyPlacement = "tool-result" | "system-prompt";

/** Per-invocation narrowing, read from `config.configurable.skills` (or createAgent `context.skills`). */
export interface SkillsInvocationOptions {
  only?: readonly string[];
  exclude?: readonly string[];
}

/** What an eviction policy is asked: the loaded skills (oldest load first), the skill being loaded, the cap. */
export interface SkillEvictionRequest {
  loaded: readonly LoadedSkillEntry[];
  incoming: string;
  maxLoadedSkills: number;
}

/** Chooses the loaded skills to unload so that `incoming` fits under the cap. */
export type SkillEvictionPolicy = (request: SkillEvictionRequest) => readonly string[];

/** Options shared by `createSkillsInterceptor` and `createSkillsMiddleware`. */
export interface SkillsRuntimeOptions {
  /** The registry (or a view of it) skills come from; read on every request, so reloads are picked up. */
  skills: SkillCatalog;
  /** Key of this agent's loaded-skill state; give each agent in one graph its own. @default "default" */
  agentId?: string;
  /** Only these skills are visible to this agent. */
  only?: readonly string[];
  /** These skills are hidden from this agent. */
  exclude?: readonly string[];
  /** Tools a skill's `allowed-tools` may unlock (gated: they run only while an owning skill is loaded). */
  tools?: readonly StructuredToolInterface[];
  /** Extra tools owned by a skill, by skill name (gated like `tools`). */
  skillTools?: Readonly<Record<string, readonly StructuredToolInterface[]>>;
  /** Tool providers whose tools depend on loaded skills (e.g. @skillgraph/shell). */
  hooks?: readonly SkillsToolHook[];
  /** @default "dynamic" */
  toolExposure?: ToolExposure;
  /** @default "tool-result" */
  bodyPlacement?: BodyPlacement;
  /**
   * Load mode of every skill not in `loadModes`: `session` keeps a read skill (and the tools it unlocked) for the rest of
   * the thread, so a follow-up question about the same task still has it; `turn` drops it when the agent has answered.
   * @default "session"
   */
  loadMode?: LoadMode;
  /** Load mode per skill name. */
  loadModes?: Readonly<Record<string, LoadMode>>;
  /** Most skills loaded at once; the least recently used is evicted (or what `evictionPolicy` picks). @default 8 */
  maxLoadedSkills?: number;
  /**
   * Picks which loaded skills to unload when a read_skill would go over `maxLoadedSkills` (names not loaded, or the
   * incoming skill, are ignored; if too few are picked, least-recently-used eviction removes the rest).
   * @default least recently used
   */
  evictionPolicy?: SkillEvictionPolicy;
  /** While a loaded skill declares `allowed-tools`, only those tools (and the skills tools) run. @default false */
  restrictTools?: boolean;
  /** With at most this many visible skills, skill-name parameters are a zod enum. @default 50 */
  enumThreshold?: number;
  /**
   * Offer `disable_skill`: `true` or `"thread"` hides the skill for this agent on this thread only; `"app"` adds it to
   * `disabledSkills`, hiding it for every agent and thread given that set (spring-ai-alibaba's registry-wide disable).
   * @default false
   */
  allowDisableSkill?: boolean | "thread" | "app";
  /**
   * Skills hidden on every thread: an app-owned set, shared by the agents given the same `Set` and read on every request
   * (delete a name to bring the skill back). `disable_skill` writes here under `allowDisableSkill: "app"`.
   * @default a set of this agent's own
   */
  disabledSkills?: Set<string>;
  /**
   * Generic file tools (deepagents' `read_file`, Strands' `file_read`) whose successful read of a listed skill's
   * SKILL.md loads that skill like read_skill (state entry, unlocked tools, events); `[]` turns this off.
   * @default ["read_file", "file_read", "Read"]
   */
  fileReadTools?: readonly string[];
  /** @default "reload" */
  onDrift?: SkillDriftPolicy;
  /** Skills list rendering (core `renderSkillsPrompt` options: format, budget, preamble, ...). @default core's: xml, 8000 chars */
  prompt?: RenderSkillsPromptOptions;
  /** Largest file `read_skill_file` returns, in bytes. @default 65536 */
  maxResourceBytes?: number;
  /** Results of `search_skills`. @default 5 */
  searchLimit?: number;
}

/** Options with defaults filled in and checked. */
export interface ResolvedSkillsRuntimeOptions {
  skills: SkillCatalog;
  agentId: string;
  only: readonly string[] | undefined;
  exclude: readonly string[];
  tools: readonly StructuredToolInterface[];
  skillTools: Readonly<Record<string, readonly StructuredToolInterface[]>>;
  hooks: readonly SkillsToolHook[];
  toolExposure: ToolExposure;
  bodyPlacement: BodyPlacement;
  loadMode: LoadMode;
  loadModes: Readonly<Record<string, LoadMode>>;
  maxLoadedSkills: number;
  evictionPolicy: SkillEvictionPolicy | undefined;
  restrictTools: boolean;
  enumThreshold: number;
  allowDisableSkill: boolean;
  /** Where disable_skill records a disabled skill. */
  disableScope: "thread" | "app";
  disabledSkills: Set<string>;
  fileReadTools: readonly string[];
  onDrift: SkillDriftPolicy;
  prompt: RenderSkillsPromptOptions;
  maxResourceBytes: number;
  searchLimit: number;
}
