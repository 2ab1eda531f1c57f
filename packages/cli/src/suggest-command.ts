/** Levenshtein distance between two short strings (command names and flags). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** Short flags people type for a global flag. */
const SHORT_FLAGS: Readonly<Record<string, string>> = { "-v": "--version", "-version": "--version", "-help": "--help" };

/**
 * What an unknown first argument most likely meant: a global flag (`-v`, `--versoin` → `--version`) or a command
 * (`valdiate` → `validate`); undefined when nothing is close.
 */
export function suggestCommand(given: string, commandNames: readonly string[]): string | undefined {
  if (SHORT_FLAGS[given]) return `skillgraph ${SHORT_FLAGS[given]}`;
  const candidates = given.startsWith("-") ? ["--version", "--help"] : [...commandNames, "help", "version"];
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(given.toLowerCase(), name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best || best.distance > Math.max(1, Math.floor(best.name.length / 3))) return undefined;
  return `skillgraph ${best.name}`;
}

/** Value flags that take numbers (a negative one would otherwise be read as a flag by parseArgs). */
const NUMERIC_FLAGS = new Set(["--limit", "--keep-last", "--timeout", "--budget"]);

/**
 * `--limit -3` → `--limit=-3`, so the command's own check says what is wrong with the number instead of parseArgs'
 * "argument is ambiguous". Only for numeric value flags, only when the next argument looks like a negative number.
 */
export function joinNegativeNumbers(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const next = args[index + 1];
    if (NUMERIC_FLAGS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      index++;
    } else out.push(arg);
  }
  return out;
}
