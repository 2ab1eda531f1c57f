// Subpath entry `@skillgraph/langgraph/middleware`: only the createAgent middleware.
export { createSkillsMiddleware } from "./middleware/create-skills-middleware.js";
export type { SkillsRuntimeOptions } from "./options/skills-runtime-options.js";
