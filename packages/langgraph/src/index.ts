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
export {
  pickAgentSkillsState,
  reduceSkillsState,
  SKILLS_STATE_KEY,
  SkillsStateAnnotation,
  skillsStateSpec,
} from "./state/skills-state.js";
export { SkillsStateSchema } from "./state/skills-state-schema.js";
export type { AgentSkillsState, AgentSkillsUpdate, SkillsStateUpdate, SkillsStateValue } from "./state/skills-state.js";
export { SKILLS_EVENT_NAME } from "./events/skills-event.js";
export type { SkillsEvent, TaggedSkillsEvent } from "./events/skills-event.js";
export { DEFAULT_SKILLS_PREAMBLE } from "./options/resolve-options.js";
export { SkillDriftError } from "./internal/core.js";
export type {
  BodyPlacement,
  DriftPolicy,
  SkillEvictionPolicy,
  SkillEvictionRequest,
  SkillsInvocationOptions,
  SkillsRuntimeOptions,
  ToolExposure,
} from "./options/skills-runtime-options.js";
export type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "./hooks/skills-tool-hook.js";
export { CALL_SKILL_TOOL } from "./tools/call-skill-tool/index.js";
export { DISABLE_SKILL } from "./tools/disable-skill/index.js";
export { LIST_SKILL_FILES } from "./tools/list-skill-files/index.js";
export { READ_SKILL } from "./tools/read-skill/index.js";
export { READ_SKILL_FILE } from "./tools/read-skill-file/index.js";
export { SEARCH_SKILLS } from "./tools/search-skills/index.js";
export { skillsFromStore, publishSkillsToStore, DEFAULT_SKILLS_NAMESPACE } from "./store-source/index.js";
export type { StoreSourceOptions, PublishSkillsOptions, PublishReport } from "./store-source/index.js";
export { cancelledToolMessageId, repairDanglingToolCalls } from "./repair/repair-dangling-tool-calls.js";
export type { RepairedHistory } from "./repair/repair-dangling-tool-calls.js";
