import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata } from "../internal/core.js";

/** What a tool hook sees when asked which tools to show or allow (same shape as @skillgraph/langgraph's). */
export interface SkillsToolHookContext {
  loadedSkills: readonly SkillMetadata[];
  threadId?: string;
}

/** The answer of {@link SkillsToolHook.authorize}. */
export type SkillsToolAuthorization = { allowed: true } | { allowed: false; reason: string };

/** A provider of tools whose visibility depends on the loaded skills; satisfied structurally by the interceptor. */
export interface SkillsToolHook {
  name: string;
  /** Every tool the hook may contribute (a stable list). */
  tools: StructuredToolInterface[];
  /** Names of the tools visible now. */
  visibleTools(context: SkillsToolHookContext): string[];
  /** Last word on one call, before the tool runs. */
  authorize?(call: { toolName: string; args: unknown }, context: SkillsToolHookContext): SkillsToolAuthorization;
  /** Releases per-thread resources (every thread's when no id). */
  dispose?(threadId?: string): Promise<void>;
}

/** The structural catalog the shell hook needs: @skillgraph/core's SkillCatalog satisfies it. */
export interface ShellSkillCatalog {
  get(name: string): SkillMetadata | undefined;
}
