import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { repairDanglingToolCalls } from "../repair/repair-dangling-tool-calls.js";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { loadedMetadata } from "./loaded-metadata.js";
import { loadedSkillsSection, restoredSkillsSection } from "./loaded-skills-section.js";
import { materialiseMessages } from "./materialise-messages.js";
import { requestTools } from "./request-tools.js";

/** The rewritten model request. */
export interface BuiltModelRequest {
  systemText: string;
  messages: BaseMessage[];
  tools: StructuredToolInterface[];
  /** Cancellation answers added for dangling tool calls (persist them to state; stable ids). */
  repairs: ToolMessage[];
  /** Loaded skills whose read_skill result had left the history; their bodies were restored in the system text. */
  restored: string[];
}

/** What a model request rewrite starts from. */
export interface ModelRequestInput {
  state: AgentSkillsState;
  catalog: SkillCatalog;
  systemText: string;
  messages: readonly BaseMessage[];
  tools: readonly StructuredToolInterface[];
  threadId?: string;
}

/**
 * Rewrites a model request: skills prompt appended to the system text, tools of loaded skills added, dangling tool
 * calls answered, loaded bodies materialised, and bodies whose read_skill result left the history restored at the end
 * of the system text (only then: the normal request's prefix does not change).
 */
export async function buildModelRequest(context: EngineContext, input: ModelRequestInput): Promise<BuiltModelRequest> {
  const { state, catalog } = input;
  const cache = context.versions.cacheFor(catalog);
  const loaded = loadedMetadata(state, catalog);
  const tools = requestTools(context, input.tools, state, loaded, cache, input.threadId);
  const repaired = repairDanglingToolCalls(input.messages);
  const materialised = await materialiseMessages(context, repaired.messages, state, catalog, cache.index);
  let systemText = joinText(input.systemText, cache.section);
  if (context.options.bodyPlacement === "system-prompt" && loaded.length > 0) systemText = joinText(systemText, await loadedSkillsSection(context, state, catalog, loaded, cache.index, materialised.selectedDocs));
  const restored = context.options.bodyPlacement === "tool-result" ? materialised.missing : [];
  if (restored.length > 0) systemText = joinText(systemText, await restoredSkillsSection(context, state, catalog, restored, cache.index));
  return { systemText, messages: materialised.messages, tools, repairs: repaired.repairs, restored };
}

function joinText(base: string, extra: string): string {
  if (!extra) return base;
  return base ? `${base}\n\n${extra}` : extra;
}
