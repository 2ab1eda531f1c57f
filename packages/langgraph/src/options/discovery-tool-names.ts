// The names of the two discovery tools. They sit with the options (whose default preamble names them) because the tools
// folder builds on the options folder, not the other way round.

/** Name of the level-2 tool. */
export const READ_SKILL = "read_skill";

/** Name of the search tool. */
export const SEARCH_SKILLS = "search_skills";
