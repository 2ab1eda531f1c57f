/** Most phrasings one search_skills call may send. */
export const MAX_SEARCH_PHRASINGS = 6;

/** Longest phrasing accepted, in characters. */
export const MAX_SEARCH_PHRASING_LENGTH = 500;

/**
 * The phrasings of a search_skills call: `queries` (an array, or a lone string) then `query` (or the aliases models
 * use), blank ones dropped and each kept once; or what was wrong with them, for the model to fix.
 */
export function searchPhrasings(args: unknown): { list: string[] } | { error: string } {
  const collected: unknown[] = [];
  if (typeof args === "string") collected.push(args);
  else if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    const many = record.queries ?? record.phrasings;
    if (Array.isArray(many)) collected.push(...many);
    else if (many !== undefined) collected.push(many);
    for (const key of ["query", "q", "text"]) if (record[key] !== undefined) collected.push(record[key]);
  }
  if (collected.some((item) => typeof item !== "string"))
    return { error: 'Each phrasing must be a string: pass {"queries": ["<the request>", "<rewrite>", ...]}.' };
  const list = [...new Set((collected as string[]).map((item) => item.trim()).filter((item) => item.length > 0))];
  if (list.length === 0)
    return { error: 'Missing the query: pass {"queries": ["<the request as written>", "<rewrite>", ...]}.' };
  if (list.length > MAX_SEARCH_PHRASINGS)
    return { error: `Too many phrasings (${list.length}): send at most ${MAX_SEARCH_PHRASINGS}.` };
  const long = list.find((item) => item.length > MAX_SEARCH_PHRASING_LENGTH);
  if (long !== undefined)
    return {
      error: `A phrasing is ${long.length} characters long; keep each under ${MAX_SEARCH_PHRASING_LENGTH} (a few keywords).`,
    };
  return { list };
}
