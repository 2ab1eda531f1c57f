// The names of the two discovery tools, in a file of their own so the options (whose default preamble names them) need
// not import the tools.

/** Name of the level-2 tool. */
export const READ_SKILL = "read_skill";

/** Name of the search tool. */
export const SEARCH_SKILLS = "search_skills";
