import type { z } from "zod";

// Checks shared by the row JSON codecs of bench/snapshot-codec.ts.

/** A file or folder name: not empty, not `.` or `..`, no separator or NUL. */
export function isPlainName(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value !== "" &&
    value !== "." &&
    value !== ".." &&
    !value.includes("/") &&
    !value.includes("\0")
  );
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first problem zod found, as `where: what`, e.g. `entries[3].identity.mtimeNs: not a decimal nanosecond time`. */
export function describeFirstIssue(root: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  const where = issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
  return `${root}${where}: ${issue.message}`;
}
