import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata } from "../internal/core.js";

/** What a tool hook sees when asked which of its tools to show or allow. */
export interface SkillsToolHookContext {
  /** Skills currently loaded for this agent on this thread. */
  loadedSkills: readonly SkillMetadata[];
  threadId?: string;
}

/** The answer of a hook's `authorize`. */
export type SkillsToolAuthorization = { allowed: true } | { allowed: false; reason: string };

/**
 * A provider of extra tools whose visibility depends on the loaded skills (e.g. @skillgraph/shell's sandboxed shell).
 * Satisfied structurally: a hook package need not import this one.
 */
export interface SkillsToolHook {
  name: string;
  tools: StructuredToolInterface[];
  /** Names of this hook's tools to show and run given the loaded skills. */
  visibleTools(context: SkillsToolHookContext): string[];
  /** Last word on one call of a visible tool. */
  authorize?(call: { toolName: string; args: unknown }, context: SkillsToolHookContext): SkillsToolAuthorization;
  /** Releases per-thread resources (all threads when no id). */
  dispose?(threadId?: string): Promise<void>;
}
