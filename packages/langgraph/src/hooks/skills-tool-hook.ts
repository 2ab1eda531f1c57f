import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillsToolHook as CoreSkillsToolHook } from "../internal/core.js";

export type { SkillsToolAuthorization, SkillsToolHookContext } from "../internal/core.js";

/** A provider of extra tools whose visibility depends on the loaded skills (e.g. @skillgraph/shell's sandboxed shell). */
export type SkillsToolHook = CoreSkillsToolHook<StructuredToolInterface>;
