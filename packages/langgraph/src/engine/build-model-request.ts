import type { BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillCatalog } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { loadedMetadata } from "./loaded-metadata.js";
import { loadedSkillsSection } from "./loaded-skills-section.js";
import { materialiseMessages } from "./materialise-messages.js";
import { requestTools } from "./request-tools.js";

/** The rewritten model request. */
export interface BuiltModelRequest {
  systemText: string;
  messages: BaseMessage[];
  tools: StructuredToolInterface[];
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

/** Rewrites a model request: skills prompt appended to the system text, tools of loaded skills added, loaded bodies materialised. */
export async function buildModelRequest(context: EngineContext, input: ModelRequestInput): Promise<BuiltModelRequest> {
  const { state, catalog } = input;
  const cache = context.versions.cacheFor(catalog);
  const loaded = loadedMetadata(state, catalog);
  const tools = requestTools(context, input.tools, state, loaded, cache, input.threadId);
  let systemText = joinText(input.systemText, cache.section);
  if (context.options.bodyPlacement === "system-prompt" && loaded.length > 0) systemText = joinText(systemText, await loadedSkillsSection(context, state, catalog, loaded, cache.index));
  const messages = await materialiseMessages(context, input.messages, state, catalog, cache.index);
  return { systemText, messages, tools };
}

function joinText(base: string, extra: string): string {
  if (!extra) return base;
  return base ? `${base}\n\n${extra}` : extra;
}
