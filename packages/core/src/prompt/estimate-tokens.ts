/** Rough token count when no tokenizer is supplied: one token per 4 characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
