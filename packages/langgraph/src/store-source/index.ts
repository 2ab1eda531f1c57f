export { skillsFromStore, type StoreSourceOptions } from "./skills-from-store.js";
export { publishSkillsToStore, type PublishSkillsOptions, type PublishReport } from "./publish-skills-to-store.js";
export { DEFAULT_SKILLS_NAMESPACE } from "./store-layout.js";
