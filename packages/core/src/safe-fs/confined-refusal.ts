import type { ConfinedFailure, ConfinedRefusal } from "./confined-types.js";

// How confined operations say no: a refusal naming the path asked for and what was wrong with which part of it.

/** A refusal of `path` for `reason`, with the sentence shown to the caller. */
export const fail = (reason: ConfinedRefusal, path: string, message: string): ConfinedFailure => ({
  ok: false,
  reason,
  path,
  message,
});

/** The `code` of a system error (`ENOENT`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/** Maps an open/mkdir error on `name` to a refusal. */
export function refusalOf(error: unknown, path: string, name: string): ConfinedFailure {
  switch (errorCode(error)) {
    case "ENOENT":
      return fail("not-found", path, `'${path}': '${name}' does not exist`);
    case "ELOOP":
    case "EMLINK":
      return fail("symlink", path, `'${path}': '${name}' is a symbolic link, which is never followed`);
    case "ENOTDIR":
      return fail("not-a-folder", path, `'${path}': '${name}' is not a folder`);
    case "EEXIST":
      return fail("exists", path, `'${path}': '${name}' already exists and is not a folder`);
    case "ENXIO":
    case "EISDIR":
      return fail("not-a-file", path, `'${path}': '${name}' is not a regular file`);
    default:
      return fail("io-error", path, `'${path}': ${(error as Error)?.message ?? String(error)}`);
  }
}

/** A refusal without the index of the path part it happened at (internal to the walk). */
export function stripAt(failure: ConfinedFailure & { at?: number }): ConfinedFailure {
  const { at: _at, ...rest } = failure;
  return rest;
}
