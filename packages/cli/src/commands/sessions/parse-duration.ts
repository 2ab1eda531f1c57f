import { UsageError } from "../../io/usage-error.js";

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds in a duration like `90s`, `30m`, `12h`, `7d`, `2w` (a bare number is days); throws UsageError naming the flag. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag} '${text}' is not a duration (e.g. 30m, 12h, 7d, 2w)`);
  const ms = Number(match[1]) * units[match[2] ?? "d"]!;
  if (!(ms > 0)) throw new UsageError(`${flag} must be greater than zero`);
  return ms;
}

/** A short human form of a byte count: `812 B`, `14.2 KB`, `5.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
