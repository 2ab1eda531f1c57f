import type { ShellWordsRefusal } from "../command/parse-shell-words.js";

/** Stable reason codes of a refused command (documented in docs/shell.md). */
export type RefusalReason =
  | ShellWordsRefusal
  | "shell-syntax"
  | "env-assignment"
  | "env-not-allowed"
  | "denied"
  | "opaque-command"
  | "not-allowed"
  | "not-found"
  | "path-traversal"
  | "absolute-path"
  | "symlink-escape"
  | "executable-outside-scripts"
  | "path-outside-workspace"
  | "skill-folder-read-only"
  | "skill-not-found"
  | "skill-not-read"
  | "skill-has-no-folder"
  | "missing-requirements"
  | "approval-denied"
  | "session-not-found"
  | "too-many-sessions"
  | "invalid-input"
  | "invalid-glob"
  | "staging-refused";

/** A command the policy refused, as data: the model sees `reason` and `message`. */
export interface Refusal {
  ok: false;
  reason: RefusalReason;
  message: string;
}

/** Builds a {@link Refusal}. */
export function refusal(reason: RefusalReason, message: string): Refusal {
  return { ok: false, reason, message };
}
