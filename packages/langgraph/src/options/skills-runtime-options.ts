import type { StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import type { SkillsToolHook } from "../hooks/skills-tool-hook.js";
import {
  defaultPreamble,
  type LoadedSkillEntry,
  type LoadMode,
  type RenderSkillsPromptOptions,
  type SkillCatalog,
  type SkillDriftPolicy,
} from "../internal/core.js";
import { READ_SKILL, SEARCH_SKILLS } from "./discovery-tool-names.js";
import { integerSchema } from "../internal/core.js";
import { oneOfSchema, shapeSchema } from "./option-schemas.js";

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

/**
 * Text put before the skills list in the system prompt (passed to core as `prompt.preamble` unless you set one): core's
 * default preamble naming `read_skill`, plus a sentence on `search_skills`.
 */
export const DEFAULT_SKILLS_PREAMBLE = defaultPreamble(READ_SKILL, SEARCH_SKILLS);

const isObject = (value: unknown) => typeof value === "object" && value !== null;
const isCatalog = (value: unknown) =>
  isObject(value) &&
  typeof (value as SkillCatalog).list === "function" &&
  typeof (value as SkillCatalog).readBody === "function";
const isTool = (value: unknown) => isObject(value) && typeof (value as { name?: unknown }).name === "string";
const isHook = (value: unknown) =>
  isObject(value) &&
  typeof (value as SkillsToolHook).visibleTools === "function" &&
  Array.isArray((value as SkillsToolHook).tools);

const loadModeSchema = oneOfSchema(["turn", "once", "session"]) satisfies z.ZodType<LoadMode>;
const toolSchema = shapeSchema<StructuredToolInterface>(isTool, "must be a LangChain tool (an object with a `name`)");
const toolListSchema = z
  .array(toolSchema, { error: "must be an array of LangChain tools" })
  .superRefine((tools, context) => {
    const seen = new Set<string>();
    for (const { name } of tools) {
      if (seen.has(name)) context.addIssue({ code: "custom", input: name, message: `tool '${name}' is listed twice` });
      seen.add(name);
    }
  })
  .readonly();

/**
 * The options shared by `createSkillsInterceptor` and `createSkillsMiddleware`, as a zod schema: it checks them (an
 * InvalidOptionsError names the option at fault) and fills in the defaults; `SkillsRuntimeOptions` is its input type.
 */
export const skillsRuntimeOptionsSchema = z
  .object(
    {
      /** The registry (or a view of it) skills come from; read on every request, so reloads are picked up. */
      skills: shapeSchema<SkillCatalog>(
        isCatalog,
        "must be a SkillCatalog (a registry from createSkillRegistry or a view of one)",
      ),
      /** Key of this agent's loaded-skill state; give each agent in one graph its own. @default "default" */
      agentId: z
        .string({ error: "must be a non-empty string" })
        .min(1, { error: "must be a non-empty string" })
        .default("default"),
      /** Only these skills are visible to this agent. */
      only: z
        .array(z.string({ error: "must be a skill name" }), { error: "must be an array of skill names" })
        .readonly()
        .optional(),
      /** These skills are hidden from this agent. */
      exclude: z
        .array(z.string({ error: "must be a skill name" }), { error: "must be an array of skill names" })
        .readonly()
        .default([]),
      /** Tools a skill's `allowed-tools` may unlock (gated: they run only while an owning skill is loaded). */
      tools: toolListSchema.default([]),
      /** Extra tools owned by a skill, by skill name (gated like `tools`). */
      skillTools: z
        .record(z.string(), z.array(toolSchema, { error: "must be an array of tools" }).readonly(), {
          error: "must be an object mapping skill names to arrays of tools",
        })
        .readonly()
        .default({}),
      /** Tool providers whose tools depend on loaded skills (e.g. @skillgraph/shell). */
      hooks: z
        .array(shapeSchema<SkillsToolHook>(isHook, "a hook needs `name`, `tools` and `visibleTools(context)`"), {
          error: "must be an array of tool hooks",
        })
        .readonly()
        .default([]),
      /** @default "dynamic" */
      toolExposure: (oneOfSchema(["dynamic", "static", "dispatcher"]) satisfies z.ZodType<ToolExposure>).default(
        "dynamic",
      ),
      /** @default "tool-result" */
      bodyPlacement: (oneOfSchema(["tool-result", "system-prompt"]) satisfies z.ZodType<BodyPlacement>).default(
        "tool-result",
      ),
      /**
       * Load mode of every skill not in `loadModes`: `session` keeps a read skill (and the tools it unlocked) for the rest
       * of the thread, so a follow-up question about the same task still has it; `turn` drops it when the agent has
       * answered.
       * @default "session"
       */
      loadMode: loadModeSchema.default("session"),
      /** Load mode per skill name. */
      loadModes: z
        .record(z.string(), loadModeSchema, { error: "must be an object mapping skill names to load modes" })
        .readonly()
        .default({}),
      /** Most skills loaded at once; the least recently used is evicted (or what `evictionPolicy` picks). @default 8 */
      maxLoadedSkills: integerSchema().default(8),
      /**
       * Picks which loaded skills to unload when a read_skill would go over `maxLoadedSkills` (names not loaded, or the
       * incoming skill, are ignored; if too few are picked, least-recently-used eviction removes the rest).
       * @default least recently used
       */
      evictionPolicy: shapeSchema<SkillEvictionPolicy>(
        (value) => typeof value === "function",
        "must be a function",
      ).optional(),
      /** While a loaded skill declares `allowed-tools`, only those tools (and the skills tools) run. @default false */
      restrictTools: z.boolean({ error: "must be true or false" }).default(false),
      /** With at most this many visible skills, skill-name parameters are a zod enum; 0 turns the enum off. @default 50 */
      enumThreshold: integerSchema({ min: 0 }).default(50),
      /**
       * Offer `disable_skill`: `true` or `"thread"` hides the skill for this agent on this thread only; `"app"` adds it
       * to `disabledSkills`, hiding it for every agent and thread given that set (spring-ai-alibaba's registry-wide
       * disable).
       * @default false
       */
      allowDisableSkill: z
        .union([z.boolean(), z.literal("thread"), z.literal("app")], {
          error: 'must be true, false, "thread" or "app"',
        })
        .default(false),
      /**
       * Skills hidden on every thread: an app-owned set, shared by the agents given the same `Set` and read on every
       * request (delete a name to bring the skill back). `disable_skill` writes here under `allowDisableSkill: "app"`.
       * @default a set of this agent's own
       */
      disabledSkills: shapeSchema<Set<string>>((value) => value instanceof Set, "must be a Set of skill names").default(
        () => new Set<string>(),
      ),
      /**
       * Generic file tools (deepagents' `read_file`, Strands' `file_read`) whose successful read of a listed skill's
       * SKILL.md loads that skill like read_skill (state entry, unlocked tools, events); `[]` turns this off.
       * @default ["read_file", "file_read", "Read"]
       */
      fileReadTools: z
        .array(z.string({ error: "must be a tool name" }), { error: "must be an array of tool names" })
        .readonly()
        .default(["read_file", "file_read", "Read"]),
      /** @default "reload" */
      onDrift: (oneOfSchema(["reload", "keep", "fail"]) satisfies z.ZodType<SkillDriftPolicy>).default("reload"),
      /** Skills list rendering (core `renderSkillsPrompt` options: format, budget, preamble, ...). @default core's: xml, 8000 chars */
      prompt: shapeSchema<RenderSkillsPromptOptions>(isObject, "must be an object of skills list rendering options")
        .optional()
        .transform((prompt) => ({ ...prompt, preamble: prompt?.preamble ?? DEFAULT_SKILLS_PREAMBLE })),
      /** Largest file `read_skill_file` returns, in bytes. @default 65536 */
      maxResourceBytes: integerSchema().default(65_536),
      /** Results of `search_skills`. @default 5 */
      searchLimit: integerSchema().default(5),
    },
    { error: "must be an object" },
  )
  .transform(({ allowDisableSkill, ...options }) => ({
    ...options,
    allowDisableSkill: allowDisableSkill !== false,
    /** Where disable_skill records a disabled skill. */
    disableScope: allowDisableSkill === "app" ? ("app" as const) : ("thread" as const),
  }));

/** Options shared by `createSkillsInterceptor` and `createSkillsMiddleware` (the input of `skillsRuntimeOptionsSchema`). */
export type SkillsRuntimeOptions = z.input<typeof skillsRuntimeOptionsSchema>;

/** Options with defaults filled in and checked (the output of `skillsRuntimeOptionsSchema`). */
export type ResolvedSkillsRuntimeOptions = z.output<typeof skillsRuntimeOptionsSchema>;
