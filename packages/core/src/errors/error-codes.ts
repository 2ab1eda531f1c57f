import { SKILL_DIAGNOSTIC_CODES, type SkillDiagnosticCode } from "./diagnostic-codes.js";

/** Where docs/errors.md is published; each code is an anchor in it (SKILL.md codes are anchors in docs/diagnostics.md). */
export const SKILLGRAPH_DOCS_URL = "https://github.com/skillgraph/skillgraph/blob/main/docs";

/**
 * Every code a thrown skillgraph error can carry (besides the SKILL.md diagnostic codes a `SkillLoadError` passes on),
 * with the class that throws it and a one-line summary. docs/errors.md has one section per code (anchor = the code);
 * a test keeps the two in step, and another checks that every code thrown in packages/ is in this table.
 */
export const SKILLGRAPH_ERROR_CODES = {
  "skill-not-found": {
    error: "SkillNotFoundError",
    summary: "No skill of that name in the registry, or not visible in this view.",
  },
  "skill-load-failed": { error: "SkillLoadError", summary: "A skill could not be loaded and no diagnostic says why." },
  "skill-path-traversal": { error: "SkillPathError", summary: "The path asked of a skill folder leaves it with `..`." },
  "skill-path-absolute": { error: "SkillPathError", summary: "The path asked of a skill folder is absolute." },
  "skill-path-nul-byte": { error: "SkillPathError", summary: "The path asked of a skill folder contains a NUL byte." },
  "skill-path-symlink-escape": {
    error: "SkillPathError",
    summary: "The path goes through a symbolic link leading outside the skill folder.",
  },
  "skill-path-not-found": { error: "SkillPathError", summary: "No such file in the skill folder (or an empty path)." },
  "skill-path-not-a-file": { error: "SkillPathError", summary: "The path is a folder, FIFO, socket or device." },
  "skill-path-binary": { error: "SkillPathError", summary: "The file is binary; only text files are read." },
  "skill-path-too-large": { error: "SkillPathError", summary: "The file is over the read size limit." },
  "skill-drift": {
    error: "SkillDriftError",
    summary: "A loaded skill changed or vanished since it was loaded, under drift policy `fail`.",
  },
  "invalid-options": {
    error: "InvalidOptionsError",
    summary: "A factory was given an invalid option (checked before anything runs).",
  },
  "invalid-load-state": {
    error: "SkillgraphError",
    summary: "The skills state channel holds a value that is not a skills load state.",
  },
  "invalid-load-event": { error: "SkillgraphError", summary: "A skill load event written to the state is malformed." },
  "skills-folder-missing": {
    error: "SkillSourceError",
    summary: "A skills folder named as a source (not `optional`) does not exist.",
  },
  "skills-folder-unreadable": {
    error: "SkillSourceError",
    summary: "A skills folder named as a source (not `optional`) is not a folder or cannot be listed.",
  },
  "package-not-found": {
    error: "SkillgraphError",
    summary: "`skillsFromPackage` names an npm package that is not installed.",
  },
  "tool-outside-interceptor": {
    error: "SkillgraphError",
    summary: "A skills tool was run by a plain ToolNode instead of the interceptor's tool node.",
  },
  "bubblewrap-unavailable": {
    error: "BubblewrapUnavailableError",
    summary: "The bubblewrap executor was chosen but `bwrap` cannot run here.",
  },
  "repository-scan": {
    error: "RepositoryScanError",
    summary:
      "The folders a sandboxed command can reach hold more repositories or folders than the repository scan visits.",
  },
  "pty-unavailable": {
    error: "SkillgraphError",
    summary: "A command asked for a pseudo-terminal and util-linux `script` is not installed.",
  },
  "workspace-path-refused": {
    error: "StagingRefusedError",
    summary:
      "A file to stage in a thread workspace is refused: outside it, a dot-file or program config, too many or too large.",
  },
  "artifact-quota-exceeded": {
    error: "ArtifactQuotaError",
    summary: "Saving an artifact would take the thread over its artifact quota (bytes or versions).",
  },
  "publish-invalid": {
    error: "SkillgraphError",
    summary: "publishSkillsToStore refused the whole publish: some skill or file in the folder is invalid.",
  },
  "store-manifest-invalid": {
    error: "SkillgraphError",
    summary: "The skills manifest read from a LangGraph store is malformed (not written by publishSkillsToStore).",
  },
  "embeddings-invalid": {
    error: "SkillgraphError",
    summary: "The embeddings model returned a wrong number of vectors, non-finite numbers or changing dimensions.",
  },
  "agent-file-invalid": {
    error: "AgentFileError",
    summary:
      "A declarative agent file (skillgraph.agent.yaml or package.json `skillgraph`) cannot be read or is invalid.",
  },
  "session-busy": {
    error: "SessionBusyError",
    summary: "The session (thread) is being written by another process that holds its lease.",
  },
  "turns-busy": {
    error: "TurnsBusyError",
    summary: "A turn scheduler's running and queued turns are full; the turn was refused before it started.",
  },
  "session-lease-lost": {
    error: "SessionLeaseLostError",
    summary: "This process lost its session lease (expired or taken over); the write was refused.",
  },
  "checkpointer-unknown-scheme": {
    error: "CheckpointerError",
    summary: "The checkpointer URL has a scheme other than sqlite:, postgres(ql):, memory:.",
  },
  "checkpointer-invalid-url": { error: "CheckpointerError", summary: "The checkpointer URL cannot be parsed." },
  "checkpointer-unreachable": {
    error: "CheckpointerError",
    summary: "The checkpoint database cannot be reached (connection refused, DNS, auth).",
  },
  "checkpointer-setup-failed": {
    error: "CheckpointerError",
    summary: "The checkpoint storage was reached but could not be set up (tables, file).",
  },
  "checkpointer-unsupported-saver": {
    error: "CheckpointerError",
    summary: "Pruning or storage stats were asked of a saver other than SQLite, PostgreSQL or memory.",
  },
  "checkpointer-connection-lost": {
    error: "CheckpointerError",
    summary: "The PostgreSQL connection was lost during an operation and again on its one retry.",
  },
  "checkpointer-database-busy": {
    error: "CheckpointerError",
    summary: "The SQLite checkpoint file stayed locked by another connection past the busy timeout.",
  },
  "checkpointer-disk-full": {
    error: "CheckpointerError",
    summary: "A checkpoint write failed because the disk under the SQLite file is full; nothing was written.",
  },
} as const satisfies Record<string, { error: string; summary: string }>;

/** A code of a thrown skillgraph error (see SKILLGRAPH_ERROR_CODES); a `SkillLoadError` may carry a SKILL.md diagnostic code. */
export type SkillgraphErrorCode = keyof typeof SKILLGRAPH_ERROR_CODES | SkillDiagnosticCode;

/** Why a path asked of a skill folder was refused (`SkillPathError.reason`); the error code is `skill-path-<reason>`. */
export type SkillPathReason =
  | "traversal"
  | "absolute"
  | "nul-byte"
  | "symlink-escape"
  | "not-found"
  | "not-a-file"
  | "binary"
  | "too-large";

/**
 * Codes of the diagnostics that sources and the registry report (`registry.diagnostics()`, a source scan) about folders
 * and skills they could not use. Not thrown: reported as data, like the SKILL.md diagnostics. Documented in
 * docs/errors.md next to the error codes.
 */
export const SOURCE_DIAGNOSTIC_CODES = {
  "source-missing": { severity: "error", summary: "A skills folder given as a source does not exist." },
  "source-unreadable": { severity: "error", summary: "A folder under a source cannot be read or listed." },
  "source-dangling-link": {
    severity: "warning",
    summary: "A symbolic link under a source leads to nothing (its target does not exist); skipped.",
  },
  "source-cycle": { severity: "warning", summary: "A symlinked folder links back to a folder above it; skipped." },
  "source-duplicate-link": {
    severity: "warning",
    summary: "A skill folder is reached a second time through a symlink; counted once.",
  },
  "source-depth-limit": { severity: "warning", summary: "Folders nest deeper than `maxDepth`; not descended further." },
  "source-limit": {
    severity: "warning",
    summary: "A folder tree holds more skills, folders or symlinked folders than its limits; the rest is not loaded.",
  },
  "source-special-folder": {
    severity: "warning",
    summary: "A source or a folder under it is in /proc, /sys or /dev; skipped.",
  },
  "source-failed": {
    severity: "error",
    summary: "A source threw while scanning (its skills are missing from the registry).",
  },
  "registry-snapshot-invalid": {
    severity: "warning",
    summary: "The registry snapshot file is unreadable or corrupt; ignored.",
  },
  "registry-snapshot-untrusted": {
    severity: "warning",
    summary: "The registry snapshot file or its folder could have been written by another user; ignored.",
  },
  "registry-snapshot-stale": {
    severity: "warning",
    summary: "The registry snapshot file is out of date; ignored and rewritten.",
  },
  "registry-snapshot-unwritable": {
    severity: "warning",
    summary: "The registry snapshot file given could not be written.",
  },
  "skill-load-failed": {
    severity: "error",
    summary: "A skill found by a source could not be loaded for an unexpected reason.",
  },
} as const satisfies Record<string, { severity: "error" | "warning"; summary: string }>;

/** A diagnostic code reported by sources and the registry (see SOURCE_DIAGNOSTIC_CODES). */
export type SourceDiagnosticCode = keyof typeof SOURCE_DIAGNOSTIC_CODES;

/** The documentation link of an error or diagnostic code: docs/errors.md, or docs/diagnostics.md for SKILL.md checks. */
export function docsUrlForCode(code: SkillgraphErrorCode | SourceDiagnosticCode): string {
  const page = code in SKILL_DIAGNOSTIC_CODES && !(code in SKILLGRAPH_ERROR_CODES) ? "diagnostics.md" : "errors.md";
  return `${SKILLGRAPH_DOCS_URL}/${page}#${code}`;
}

/** True when `code` is a SKILL.md diagnostic code (so a SkillLoadError can carry it as its own code). */
export function isSkillDiagnosticCode(code: string): code is SkillDiagnosticCode {
  return Object.hasOwn(SKILL_DIAGNOSTIC_CODES, code);
}
