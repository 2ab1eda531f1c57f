import { defaultPreamble, integerOption, InvalidOptionsError } from "../internal/core.js";
import { READ_SKILL } from "../tools/read-skill/index.js";
import { SEARCH_SKILLS } from "../tools/search-skills/index.js";
import type { ResolvedSkillsRuntimeOptions, SkillsRuntimeOptions } from "./skills-runtime-options.js";

const LOAD_MODES = ["turn", "once", "session"] as const;
const EXPOSURES = ["dynamic", "static", "dispatcher"] as const;
const PLACEMENTS = ["tool-result", "system-prompt"] as const;
const DRIFT = ["reload", "keep", "fail"] as const;

/**
 * Text put before the skills list in the system prompt (passed to core as `prompt.preamble` unless you set one): core's
 * default preamble naming `read_skill`, plus a sentence on `search_skills`.
 */
export const DEFAULT_SKILLS_PREAMBLE = defaultPreamble(READ_SKILL, SEARCH_SKILLS);

/** Checks options once and fills in defaults; throws InvalidOptionsError naming the option at fault. */
export function resolveOptions(options: SkillsRuntimeOptions): ResolvedSkillsRuntimeOptions {
  const fail = (option: string, value: unknown, message: string) => new InvalidOptionsError({ option, value, message });
  if (!options || typeof options !== "object") throw fail("options", options, "must be an object");
  const catalog = options.skills;
  if (!catalog || typeof catalog.list !== "function" || typeof catalog.readBody !== "function")
    throw fail("skills", catalog, "must be a SkillCatalog (a registry from createSkillRegistry or a view of one)");
  const agentId = options.agentId ?? "default";
  if (typeof agentId !== "string" || agentId.length === 0) throw fail("agentId", agentId, "must be a non-empty string");
  oneOf("loadMode", options.loadMode, LOAD_MODES);
  oneOf("toolExposure", options.toolExposure, EXPOSURES);
  oneOf("bodyPlacement", options.bodyPlacement, PLACEMENTS);
  oneOf("onDrift", options.onDrift, DRIFT);
  for (const [name, mode] of Object.entries(options.loadModes ?? {})) oneOf(`loadModes.${name}`, mode, LOAD_MODES);
  const maxLoadedSkills = integerOption("maxLoadedSkills", options.maxLoadedSkills ?? 8);
  if (options.evictionPolicy !== undefined && typeof options.evictionPolicy !== "function")
    throw fail("evictionPolicy", options.evictionPolicy, "must be a function");
  const allowDisable = options.allowDisableSkill ?? false;
  if (![true, false, "thread", "app"].includes(allowDisable as never))
    throw fail("allowDisableSkill", allowDisable, 'must be true, false, "thread" or "app"');
  const disabledSkills = options.disabledSkills ?? new Set<string>();
  if (!(disabledSkills instanceof Set)) throw fail("disabledSkills", disabledSkills, "must be a Set of skill names");
  const fileReadTools = options.fileReadTools ?? ["read_file", "file_read", "Read"];
  if (!Array.isArray(fileReadTools) || fileReadTools.some((name) => typeof name !== "string"))
    throw fail("fileReadTools", fileReadTools, "must be an array of tool names");
  const tools = options.tools ?? [];
  const names = new Set<string>();
  for (const tool of tools) {
    if (!tool || typeof tool.name !== "string") throw fail("tools", tool, "must hold LangChain tools");
    if (names.has(tool.name)) throw fail("tools", tool.name, `tool '${tool.name}' is listed twice`);
    names.add(tool.name);
  }
  for (const [skill, list] of Object.entries(options.skillTools ?? {})) {
    if (!Array.isArray(list)) throw fail(`skillTools.${skill}`, list, "must be an array of tools");
  }
  for (const hook of options.hooks ?? []) {
    if (!hook || typeof hook.visibleTools !== "function" || !Array.isArray(hook.tools))
      throw fail("hooks", hook, "each hook needs `name`, `tools` and `visibleTools(context)`");
  }
  return {
    skills: catalog,
    agentId,
    only: options.only,
    exclude: options.exclude ?? [],
    tools,
    skillTools: options.skillTools ?? {},
    hooks: options.hooks ?? [],
    toolExposure: options.toolExposure ?? "dynamic",
    bodyPlacement: options.bodyPlacement ?? "tool-result",
    loadMode: options.loadMode ?? "session",
    loadModes: options.loadModes ?? {},
    maxLoadedSkills,
    evictionPolicy: options.evictionPolicy,
    restrictTools: options.restrictTools ?? false,
    // 0 turns the enum of skill names off; the other counts and sizes must be at least 1.
    enumThreshold: integerOption("enumThreshold", options.enumThreshold ?? 50, { min: 0 }),
    allowDisableSkill: allowDisable !== false,
    disableScope: allowDisable === "app" ? "app" : "thread",
    disabledSkills,
    fileReadTools,
    onDrift: options.onDrift ?? "reload",
    prompt: { ...options.prompt, preamble: options.prompt?.preamble ?? DEFAULT_SKILLS_PREAMBLE },
    maxResourceBytes: integerOption("maxResourceBytes", options.maxResourceBytes ?? 65_536),
    searchLimit: integerOption("searchLimit", options.searchLimit ?? 5),
  };

  function oneOf(option: string, value: unknown, allowed: readonly string[]) {
    if (value !== undefined && !allowed.includes(value as string))
      throw fail(option, value, `must be one of ${allowed.map((item) => `"${item}"`).join(", ")}`);
  }
}
