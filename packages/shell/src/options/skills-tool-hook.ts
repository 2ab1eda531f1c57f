import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata, SkillsToolHook as CoreSkillsToolHook } from "../internal/core.js";

export type { SkillsToolAuthorization, SkillsToolHookContext } from "../internal/core.js";

/** The hook contract the SkillsInterceptor accepts, with LangChain tools. */
export type SkillsToolHook = CoreSkillsToolHook<StructuredToolInterface>;

/** The structural catalog the shell hook needs: @skillgraph/core's SkillCatalog satisfies it. */
export interface ShellSkillCatalog {
  /** The skill of that name, or undefined. */
  get(name: string): SkillMetadata | undefined;
}
