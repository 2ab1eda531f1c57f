/** How serious a diagnostic is: `error` breaks the spec (strict loading refuses the skill), `warning` is advice. */
export type DiagnosticSeverity = "error" | "warning";

/**
 * Every diagnostic code a SKILL.md check can report, with its severity and a one-line summary.
 * The first group mirrors the reference validator (skills-ref) one to one; the rest are skillgraph's own.
 * Each code is documented in docs/diagnostics.md (anchor = the code).
 */
export const SKILL_DIAGNOSTIC_CODES = {
  // Reference message classes (skills-ref), in the reference's order of checks.
  "skill-dir-missing": { severity: "error", summary: "The skill folder does not exist." },
  "skill-dir-not-directory": { severity: "error", summary: "The skill path is not a folder." },
  "skill-md-missing": {
    severity: "error",
    summary: "The folder has no SKILL.md (or skill.md); a dangling symlink counts as missing.",
  },
  "frontmatter-missing": { severity: "error", summary: "SKILL.md does not start with a `---` line." },
  "frontmatter-unclosed": { severity: "error", summary: "The frontmatter has no closing `---` line." },
  "yaml-invalid": {
    severity: "error",
    summary:
      "The frontmatter is not valid strict YAML (syntax error, flow style, anchor, alias, tag or duplicate key).",
  },
  "frontmatter-not-mapping": { severity: "error", summary: "The frontmatter is not a YAML mapping." },
  "unknown-field": {
    severity: "error",
    summary: "A frontmatter key outside name, description, license, allowed-tools, metadata, compatibility.",
  },
  "name-missing": { severity: "error", summary: "No `name` field." },
  "name-empty": { severity: "error", summary: "`name` is not a string, or is blank." },
  "name-too-long": { severity: "error", summary: "`name` is longer than 64 characters (code points, after NFKC)." },
  "name-lowercase": { severity: "error", summary: "`name` has uppercase characters." },
  "name-hyphen-edge": { severity: "error", summary: "`name` starts or ends with a hyphen." },
  "name-consecutive-hyphens": { severity: "error", summary: "`name` contains `--`." },
  "name-chars": { severity: "error", summary: "`name` has characters other than letters, digits and hyphens." },
  "name-dir-mismatch": { severity: "error", summary: "`name` differs from the folder name." },
  "description-missing": { severity: "error", summary: "No `description` field." },
  "description-empty": { severity: "error", summary: "`description` is not a string, or is blank." },
  "description-too-long": { severity: "error", summary: "`description` is longer than 1024 characters." },
  "compatibility-type": { severity: "error", summary: "`compatibility` is not a string." },
  "compatibility-too-long": { severity: "error", summary: "`compatibility` is longer than 500 characters." },
  // skillgraph's own: hostile or unreadable files (the reference crashes or hangs on these).
  "not-a-regular-file": { severity: "error", summary: "SKILL.md is a folder, FIFO, socket or device." },
  "symlink-escape": { severity: "error", summary: "SKILL.md is a symlink resolving outside the source root." },
  "file-too-large": { severity: "error", summary: "SKILL.md is larger than the size limit (default 1 MiB)." },
  "file-unreadable": {
    severity: "error",
    summary: "SKILL.md cannot be opened or read (permissions, I/O error, symlink loop).",
  },
  "encoding-invalid": { severity: "error", summary: "SKILL.md is not valid UTF-8." },
  "yaml-alias-limit": { severity: "error", summary: "The frontmatter expands too many aliases (YAML bomb)." },
  "yaml-too-deep": { severity: "error", summary: "The frontmatter nests brackets too deeply to parse safely." },
  // skillgraph's own advice (never makes a skill invalid).
  "utf8-bom": {
    severity: "warning",
    summary: "SKILL.md starts with a UTF-8 byte order mark (stripped; the reference rejects it).",
  },
  "skill-md-lowercase": { severity: "warning", summary: "The file is named skill.md; SKILL.md is the spec's name." },
  "compatibility-empty": {
    severity: "warning",
    summary: "`compatibility` is empty (the spec asks for 1-500 characters).",
  },
  "license-type": { severity: "warning", summary: "`license` is not a string (ignored)." },
  "metadata-type": { severity: "warning", summary: "`metadata` is not a mapping of string keys to string values." },
  "allowed-tools-type": {
    severity: "warning",
    summary: "`allowed-tools` is neither a space-separated string nor a list of strings.",
  },
  "body-too-long": {
    severity: "warning",
    summary: "The body has more than 500 lines (the spec's recommended maximum).",
  },
  "body-empty": { severity: "warning", summary: "The body (instructions after the frontmatter) is empty." },
  "description-placeholder": {
    severity: "warning",
    summary: "`description` is still a placeholder (what `skillgraph init` writes, or TODO/TBD/FIXME).",
  },
  "dialect-field": {
    severity: "warning",
    summary:
      "A key of another runtime's dialect (allowed_tools, allowedTools, tools, tama, depends): honoured, with the spec's spelling as the fix.",
  },
} as const satisfies Record<string, { severity: DiagnosticSeverity; summary: string }>;

/** A diagnostic code skillgraph's SKILL.md checks can report. */
export type SkillDiagnosticCode = keyof typeof SKILL_DIAGNOSTIC_CODES;
