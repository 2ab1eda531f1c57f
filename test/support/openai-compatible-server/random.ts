/** A seedable pseudo-random source, so a test that starts a server with `seed` sees the same ids on every run. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** `length` characters drawn from `alphabet`. */
  pick(alphabet: string, length: number): string;
}

/** Letters and digits, both cases (OpenAI, Mistral ids). */
export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Lowercase letters and digits (Ollama's tool-call ids). */
export const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
/** Lowercase hexadecimal digits (uuid4().hex in vLLM and Xinference). */
export const HEX = "0123456789abcdef";

/** mulberry32 seeded with `seed` (any integer); without a seed, a random one (like a Go or Python process at start-up). */
export function createRandom(seed: number = Math.floor(Math.random() * 2 ** 32)): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  return {
    next,
    int,
    pick: (alphabet, length) => Array.from({ length }, () => alphabet[int(alphabet.length)]).join(""),
  };
}
