// @skillgraph/langgraph/store: skills shared by a fleet through a LangGraph store — the source that reads them and the
// publisher that writes them.
export { skillsFromStore, publishSkillsToStore, DEFAULT_SKILLS_NAMESPACE } from "./store-source/index.js";
export type { StoreSourceOptions, PublishSkillsOptions, PublishReport } from "./store-source/index.js";
