// Gating: whether a tool call may run, is a skills tool, or is answered with an explanation instead.
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillsToolHookContext } from "../hooks/skills-tool-hook.js";
import type { SkillCatalog, SkillMetadata } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { CALL_SKILL_TOOL, parseDispatch } from "../tools/call-skill-tool/index.js";
import { DISABLE_SKILL } from "../tools/disable-skill/index.js";
import { SKILLS_TOOL_NAMES, isSkillsToolName, type EngineContext, type SkillToolIndex } from "./catalog-cache.js";
import { loadedMetadata } from "./loaded-metadata.js";

/** What a tool call is judged against: the agent's state, its catalog, and the thread (for hooks' visibility). */
export interface GateScope {
  state: AgentSkillsState;
  catalog: SkillCatalog;
  threadId?: string | undefined;
}

/** Decides whether a tool call may run, is a skills tool, or is answered with an explanation instead. */
export function gateToolCall(
  context: EngineContext,
  call: EngineToolCall,
  { state, catalog, threadId }: GateScope,
): GateDecision {
  const { options } = context;
  const name = call.name;
  if (name === CALL_SKILL_TOOL && options.toolExposure === "dispatcher") {
    const inner = parseDispatch(call.args);
    if ("error" in inner) return { action: "block", reason: inner.error };
    if (isSkillsToolName(inner.tool))
      return { action: "block", reason: `Call ${inner.tool} directly, not through ${CALL_SKILL_TOOL}.` };
    const decision = gateToolCall(
      context,
      { name: inner.tool, args: inner.args, id: call.id },
      { state, catalog, threadId },
    );
    if (decision.action === "run" && !decision.tool)
      return { action: "block", reason: `'${inner.tool}' is not a skill tool; call it directly.` };
    return decision;
  }
  if (isSkillsToolName(name) && (name !== DISABLE_SKILL || options.allowDisableSkill) && name !== CALL_SKILL_TOOL)
    return { action: "skills-tool" };
  const cache = context.versions.cacheFor(catalog);
  const loaded = loadedMetadata(state, catalog);
  const hooked = context.hookTools.get(name);
  if (hooked) {
    const hook = options.hooks[hooked.hook]!;
    const hookContext: SkillsToolHookContext = { loadedSkills: loaded, threadId };
    if (!hook.visibleTools(hookContext).includes(name))
      return {
        action: "block",
        reason: `Tool '${name}' is not available now: load a skill that uses it first (read_skill).`,
      };
    const verdict = hook.authorize?.({ toolName: name, args: call.args }, hookContext);
    if (verdict && !verdict.allowed) return { action: "block", reason: `Tool '${name}' refused: ${verdict.reason}` };
    return { action: "run", call, tool: hooked.tool };
  }
  const owners = cache.index.owners.get(name);
  if (owners) {
    const loadedOwner = owners.find((owner) => state.load.loaded[owner] !== undefined);
    if (!loadedOwner) {
      const reason =
        owners.length === 0
          ? `Tool '${name}' is not available: no skill visible to this agent unlocks it.`
          : `Tool '${name}' belongs to skill ${owners.map((owner) => `'${owner}'`).join(" or ")}, which is not loaded. Call read_skill with {"name": "${owners[0]}"} first, then retry.`;
      return { action: "block", reason };
    }
    const restricted = toolRestriction(options.restrictTools, loaded, cache.index);
    if (restricted && !restricted.has(name.toLowerCase()) && !ownedByLoaded(name, loaded, cache.index))
      return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
    return { action: "run", call, tool: context.servedTools.find((tool) => tool.name === name), owner: loadedOwner };
  }
  if (catalog.has(name))
    return {
      action: "block",
      reason: `'${name}' is a skill, not a tool. Call read_skill with {"name": "${name}"} to load its instructions, then follow them.`,
    };
  const restricted = toolRestriction(options.restrictTools, loaded, cache.index);
  if (restricted && !restricted.has(name.toLowerCase()))
    return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
  return { action: "run", call };
}

/** What the gate decided for one tool call. */
export type GateDecision =
  | { action: "skills-tool" }
  /** Run `call` (the inner call for a dispatcher call); `tool` is set when the interceptor serves the tool itself. */
  | { action: "run"; call: EngineToolCall; tool?: StructuredToolInterface; owner?: string }
  | { action: "block"; reason: string };

/** Lower-cased names allowed while a restricting skill is loaded (restrict mode), or undefined when unrestricted. */
export function toolRestriction(
  restrictTools: boolean,
  loaded: readonly SkillMetadata[],
  index: SkillToolIndex,
): Set<string> | undefined {
  if (!restrictTools) return undefined;
  const restricting = loaded.filter((skill) => index.declared.has(skill.name));
  if (restricting.length === 0) return undefined;
  const allowed = new Set<string>(SKILLS_TOOL_NAMES);
  for (const skill of restricting) for (const name of index.declared.get(skill.name)!) allowed.add(name);
  for (const skill of loaded)
    for (const tool of index.owned.get(skill.name) ?? []) allowed.add(tool.name.toLowerCase());
  return allowed;
}

/** Whether some loaded skill owns the tool `toolName`. */
export function ownedByLoaded(toolName: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): boolean {
  return loaded.some((skill) => (index.owned.get(skill.name) ?? []).some((tool) => tool.name === toolName));
}

/** The block reason for a tool outside the active skills' allowed-tools. */
export function restrictionReason(name: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): string {
  const active = loaded.filter((skill) => index.declared.has(skill.name)).map((skill) => `'${skill.name}'`);
  return `Tool '${name}' is not allowed while skill ${active.join(", ")} is active (its allowed-tools restrict the tools in use).`;
}

/** A tool call as both shapes see it. */
export interface EngineToolCall {
  name: string;
  args: unknown;
  id?: string;
}
