// @skillgraph/langgraph: what an app uses — the SkillsInterceptor (hand-built StateGraph) and the createAgent
// middleware, their options, events and tool names. The state channel is on /state, skills shared through a LangGraph
// store on /store, the dangling-tool-call repair on /repair (see "Package entry points" in the README). Every type the
// functions below take or return is exported here (or, for core's types, by @skillgraph/core).
export { createSkillsInterceptor } from "./interceptor/create-skills-interceptor.js";
export type {
  CallModelOptions,
  PreparedModelRequest,
  SkillsGraphState,
  SkillsInterceptor,
  SkillsNodeUpdate,
} from "./interceptor/create-skills-interceptor.js";
export type { GatedToolNodeOptions } from "./interceptor/gated-tool-node.js";
export { createSkillsMiddleware } from "./middleware/create-skills-middleware.js";
export { getLoadedSkills } from "./state/get-loaded-skills.js";
export { settleModelReply, settledReplyRecord, SETTLED_REPLY_KEY } from "./history/settle-model-reply.js";
export type {
  RefusedCall,
  RefusedCallReason,
  SettledReplyRecord,
  SettleOptions,
} from "./history/settle-model-reply.js";
export { SKILLS_EVENT_NAME } from "./events/skills-event.js";
export type { SkillsEvent, TaggedSkillsEvent } from "./events/skills-event.js";
export { DEFAULT_SKILLS_PREAMBLE } from "./options/resolve-options.js";
export { skillsRuntimeOptionsSchema } from "./options/skills-runtime-options.js";
export type {
  BodyPlacement,
  SkillEvictionPolicy,
  SkillEvictionRequest,
  SkillsInvocationOptions,
  SkillsRuntimeOptions,
  ToolExposure,
} from "./options/skills-runtime-options.js";
export type { AgentSkillsState, AgentSkillsUpdate, SkillsStateUpdate, SkillsStateValue } from "./state/skills-state.js";
export type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "./hooks/skills-tool-hook.js";
export { CALL_SKILL_TOOL } from "./tools/call-skill-tool/index.js";
export { DISABLE_SKILL } from "./tools/disable-skill/index.js";
export { LIST_SKILL_FILES } from "./tools/list-skill-files/index.js";
export { READ_SKILL } from "./tools/read-skill/index.js";
export { READ_SKILL_FILE } from "./tools/read-skill-file/index.js";
export { SEARCH_SKILLS } from "./tools/search-skills/index.js";
export { createMemoryTools, MEMORY_MAX_VALUE_CHARS, type MemoryToolsOptions } from "./tools/memory/index.js";
