import type { SkillMetadata } from "../skill/skill-types.js";

/** What a tool hook sees when asked which of its tools to show or allow. */
export interface SkillsToolHookContext {
  /** Skills currently loaded for this agent on this thread. */
  loadedSkills: readonly SkillMetadata[];
  threadId?: string;
}

/** The answer of a hook's `authorize`. */
export type SkillsToolAuthorization = { allowed: true } | { allowed: false; reason: string };

/**
 * A provider of extra tools whose visibility depends on the loaded skills (e.g. @skillgraph/shell).
 * `TTool` is the tool type of the front end (LangChain's StructuredToolInterface in @skillgraph/langgraph), so core
 * stays free of LangChain while the interceptor and hook packages share one contract.
 */
export interface SkillsToolHook<TTool = unknown> {
  name: string;
  /** Every tool the hook may contribute (a stable list). */
  tools: TTool[];
  /** Names of this hook's tools to show and run given the loaded skills. */
  visibleTools(context: SkillsToolHookContext): string[];
  /** Last word on one call of a visible tool, before it runs. */
  authorize?(call: { toolName: string; args: unknown }, context: SkillsToolHookContext): SkillsToolAuthorization;
  /** Releases per-thread resources (every thread's when no id). */
  dispose?(threadId?: string): Promise<void>;
}
