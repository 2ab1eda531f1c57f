import { tokenize } from "./tokenize.js";

/**
 * A word written as a name: capitalized (or all capitals), letters only, at least two of them, optionally with a
 * possessive `'s` and surrounding punctuation ("HubSpot", "Oracle's", "(IBM)"). Not "I", "C#", "S3" or "Q3".
 */
const NAME_WORD = /^[^A-Za-z0-9]*[A-Z][A-Za-z]*[A-Za-z](?:['’]s)?[^A-Za-z0-9]*$/;
/** A capital after the first letter ("HubSpot", "IBM"): a name even where a sentence starts. */
const INNER_CAPITAL = /[A-Za-z][A-Z]/;
/** A word that ends a sentence or a lead-in ("Note:"), so the next word's capital says nothing. */
const SENTENCE_END = /[.!?:;]["'’)\]]*$/;

/**
 * Query terms that come from names: words capitalized where a sentence does not start ("Deploy to Netlify", "in
 * Microsoft Teams"). A request naming a product, company or technology is about that thing, so a skill that never
 * mentions it is a weaker fit (see `rankDocuments`). Language-general: casing only, no word list.
 * @example nameTerms("Create a deal in HubSpot") // Set { "hubspot" }
 */
export function nameTerms(query: string): Set<string> {
  const names = new Set<string>();
  const words = query.split(/\s+/).filter(Boolean);
  words.forEach((word, i) => {
    const startsSentence = i === 0 || SENTENCE_END.test(words[i - 1]!);
    if (!NAME_WORD.test(word) || (startsSentence && !INNER_CAPITAL.test(word))) return;
    for (const term of tokenize(word, { keepCompounds: true })) names.add(term);
  });
  return names;
}
