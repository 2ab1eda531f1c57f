import type { SkillCatalog } from "../internal/core.js";
import type { SkillsToolHookContext } from "../hooks/skills-tool-hook.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { CALL_SKILL_TOOL, parseDispatch } from "../tools/call-skill-tool/index.js";
import { DISABLE_SKILL } from "../tools/disable-skill/index.js";
import type { EngineContext } from "./engine-context.js";
import type { EngineToolCall } from "./engine-tool-call.js";
import type { GateDecision } from "./gate-decision.js";
import { loadedMetadata } from "./loaded-metadata.js";
import { isSkillsToolName } from "./skills-tool-names.js";
import { ownedByLoaded, restrictionReason, toolRestriction } from "./tool-restriction.js";

/** Decides whether a tool call may run, is a skills tool, or is answered with an explanation instead. */
export function gateToolCall(context: EngineContext, call: EngineToolCall, state: AgentSkillsState, catalog: SkillCatalog, threadId?: string): GateDecision {
  const { options } = context;
  const name = call.name;
  if (name === CALL_SKILL_TOOL && options.toolExposure === "dispatcher") {
    const inner = parseDispatch(call.args);
    if ("error" in inner) return { action: "block", reason: inner.error };
    if (isSkillsToolName(inner.tool)) return { action: "block", reason: `Call ${inner.tool} directly, not through ${CALL_SKILL_TOOL}.` };
    const decision = gateToolCall(context, { name: inner.tool, args: inner.args, id: call.id }, state, catalog, threadId);
    if (decision.action === "run" && !decision.tool) return { action: "block", reason: `'${inner.tool}' is not a skill tool; call it directly.` };
    return decision;
  }
  if (isSkillsToolName(name) && (name !== DISABLE_SKILL || options.allowDisableSkill) && name !== CALL_SKILL_TOOL) return { action: "skills-tool" };
  const cache = context.versions.cacheFor(catalog);
  const loaded = loadedMetadata(state, catalog);
  const hooked = context.hookTools.get(name);
  if (hooked) {
    const hook = options.hooks[hooked.hook]!;
    const hookContext: SkillsToolHookContext = { loadedSkills: loaded, threadId };
    if (!hook.visibleTools(hookContext).includes(name)) return { action: "block", reason: `Tool '${name}' is not available now: load a skill that uses it first (read_skill).` };
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
    if (restricted && !restricted.has(name.toLowerCase()) && !ownedByLoaded(name, loaded, cache.index)) return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
    return { action: "run", call, tool: context.servedTools.find((tool) => tool.name === name), owner: loadedOwner };
  }
  if (catalog.has(name)) return { action: "block", reason: `'${name}' is a skill, not a tool. Call read_skill with {"name": "${name}"} to load its instructions, then follow them.` };
  const restricted = toolRestriction(options.restrictTools, loaded, cache.index);
  if (restricted && !restricted.has(name.toLowerCase())) return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
  return { action: "run", call };
}
