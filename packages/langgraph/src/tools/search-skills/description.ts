// The model-facing text of search_skills. An independent writer produced the rewrites the search was measured with
// from this text alone (docs/design/search-tuning.md): change it and those measurements no longer describe it.

/** What the model reads about search_skills. */
export const SEARCH_SKILLS_DESCRIPTION = [
  "Find the installed skill that fits a task. Returns the best matches, best first, and says whether any of them is a confident fit.",
  "The search matches words, not meaning: a skill is found when your query uses the words its author used. So send `queries`: first the user's request exactly as written, then two or three rewrites of the same need in the words a skill author would use:",
  '- the task, named plainly ("deploy a web app", "merge PDF files", "write a commit message", "molecular dynamics simulation");',
  '- the tools, products, libraries or services it involves ("Vercel", "git", "pandas", "Jira", "Slack");',
  '- the file formats ("xlsx spreadsheet", "pptx slides", "CSV", "GIF").',
  "Each rewrite is a short phrase of a few keywords, not a sentence. Rewrite only the need the user stated; do not add tasks they did not ask for.",
  "All phrasings are searched and their rankings fused. If the result says no match is confident, no skill clearly fits: search again with other rewrites (a more specific tool or file format, or the field the task belongs to), or continue without a skill. Load a match with read_skill.",
].join("\n");

/** The `queries` parameter's description. */
export const QUERIES_DESCRIPTION =
  "the user's request as written, then two or three rewrites in a skill author's words (task, tools, file formats).";

/** The `query` parameter's description. */
export const QUERY_DESCRIPTION = "a single phrasing; prefer `queries`.";
