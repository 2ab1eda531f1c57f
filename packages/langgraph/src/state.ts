// @skillgraph/langgraph/state: the skills state channel for graphs that declare it themselves — its key, its reducer,
// the Annotation / StateSchema forms, and picking one agent's entry out of a subgraph's output.
export {
  pickAgentSkillsState,
  reduceSkillsState,
  SKILLS_STATE_KEY,
  SkillsStateAnnotation,
  skillsStateSpec,
} from "./state/skills-state.js";
export { SkillsStateSchema } from "./state/skills-state-schema.js";
// The state types (AgentSkillsState, AgentSkillsUpdate, SkillsStateUpdate, SkillsStateValue) are on the root entry.
