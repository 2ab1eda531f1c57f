import { stemmer } from "stemmer";

// Porter (1980) stemming by the `stemmer` package: "connections" -> "connect", "relational" -> "relat".
// Only lowercase ASCII words are stemmed; anything else (digits, CJK, accented letters, words of one or two letters) is
// an index term as it is, so "60s", "s3fs" and "clichés" are not cut.

const LOWERCASE_ASCII = /^[a-z]+$/;

/**
 * The Porter stem of a lowercase ASCII word of three letters or more; any other word unchanged.
 * @example porterStem("deploying") // "deploi"
 */
export function porterStem(word: string): string {
  return word.length <= 2 || !LOWERCASE_ASCII.test(word) ? word : stemmer(word);
}
