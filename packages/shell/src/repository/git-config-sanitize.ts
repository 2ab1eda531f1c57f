// A repository's configuration is input the model controls: git starts programs named under many keys (filters, diff
// and merge drivers, hooks, fsmonitor, pagers, editors, credential helpers, upload-pack, ssh...) and loads more
// configuration from `include` paths. The sanitised copy keeps only keys on an allow-list of settings that name no
// program and load nothing, re-written in canonical form; of a file it cannot read as plain git syntax only the core
// basics and remote/branch urls and refs on plain lines survive (fail closed).
import { GIT_CONFIG_ITEMS_PER_STEP, type GitConfigEntry, parseGitConfigSteps } from "./git-config-parse.js";
import { salvageGitConfigSteps } from "./git-config-salvage.js";
import { runAllSteps, type SteppedWork } from "./stepped-work.js";

/** Largest configuration file read; a larger one is replaced by the minimal configuration. */
export const MAX_GIT_CONFIG_BYTES = 256 * 1024;

type KeySet = ReadonlySet<string> | "any";
const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Sections without a subsection: the keys kept. */
const PLAIN: Readonly<Record<string, KeySet>> = {
  core: keys(
    "repositoryformatversion",
    "filemode",
    "bare",
    "worktree",
    "logallrefupdates",
    "ignorecase",
    "precomposeunicode",
    "symlinks",
    "autocrlf",
    "eol",
    "safecrlf",
    "quotepath",
    "checkstat",
    "trustctime",
    "sharedrepository",
    "compression",
    "loosecompression",
    "abbrev",
    "commentchar",
    "whitespace",
    "untrackedcache",
    "splitindex",
    "preloadindex",
    "longpaths",
  ),
  extensions: "any",
  user: keys("name", "email"),
  init: keys("defaultbranch"),
  pull: keys("rebase", "ff"),
  push: keys("default", "autosetupremote", "followtags"),
  fetch: keys("prune", "prunetags", "writecommitgraph"),
  merge: keys("ff", "conflictstyle", "renames"),
  diff: keys("renames", "algorithm", "noprefix", "mnemonicprefix", "context", "indentheuristic", "colormoved"),
  status: keys("showuntrackedfiles", "short", "branch", "relativepaths", "renames"),
  submodule: keys("active", "recurse"),
  index: keys("version", "skiphash"),
  i18n: keys("commitencoding", "logoutputencoding"),
  gc: keys("auto", "autopacklimit", "reflogexpire", "reflogexpireunreachable", "pruneexpire"),
  advice: "any",
  color: "any",
};

/** Sections with a subsection (a remote, branch or submodule name): the keys kept. */
const NAMED: Readonly<Record<string, KeySet>> = {
  remote: keys(
    "url",
    "pushurl",
    "fetch",
    "push",
    "mirror",
    "tagopt",
    "prune",
    "prunetags",
    "promisor",
    "partialclonefilter",
    "skipdefaultupdate",
    "skipfetchall",
  ),
  branch: keys("remote", "merge", "rebase", "pushremote", "description"),
  submodule: keys("url", "path", "active", "branch", "ignore", "shallow", "fetchrecursesubmodules"),
  color: "any",
};

/** True when `entry` is on the allow-list: it names no program and loads no other file. */
export function isSafeGitConfigEntry(entry: GitConfigEntry): boolean {
  const allowed = entry.subsection === undefined ? PLAIN[entry.section] : NAMED[entry.section];
  if (allowed === undefined || !Object.hasOwn(entry.subsection === undefined ? PLAIN : NAMED, entry.section))
    return false;
  return allowed === "any" || allowed.has(entry.key);
}

/** What each character that needs one becomes inside a quoted value or subsection. */
const QUOTED: Readonly<Record<string, string>> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\b": "\\b" };
const NEEDS_ESCAPE = /[\\"\n\t\b]/g;
const quote = (text: string) => `"${text.replace(NEEDS_ESCAPE, (char) => QUOTED[char] as string)}"`;

/** Entries written back in canonical form (one header per run of the same section, every value quoted), in steps. */
function* serializeGitConfigSteps(entries: readonly GitConfigEntry[]): SteppedWork<string> {
  const lines: string[] = [];
  let last: string | undefined;
  for (const [index, entry] of entries.entries()) {
    const header =
      entry.subsection === undefined
        ? `[${entry.section}]`
        : `[${entry.section} "${entry.subsection.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"]`;
    if (header !== last) lines.push(header);
    last = header;
    lines.push(entry.value === null ? `\t${entry.key}` : `\t${entry.key} = ${quote(entry.value)}`);
    if ((index + 1) % GIT_CONFIG_ITEMS_PER_STEP === 0) yield;
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** The entries of `parsed` on the allow-list, in steps. */
function* allowedEntriesSteps(parsed: readonly GitConfigEntry[]): SteppedWork<GitConfigEntry[]> {
  const kept: GitConfigEntry[] = [];
  for (const [index, entry] of parsed.entries()) {
    if (isSafeGitConfigEntry(entry)) kept.push(entry);
    if ((index + 1) % GIT_CONFIG_ITEMS_PER_STEP === 0) yield;
  }
  return kept;
}

/**
 * {@link sanitizeGitConfig} in steps (pausing after every few hundred entries), for a caller that runs it in slices
 * of CPU time.
 */
export function* sanitizeGitConfigSteps(text: string | undefined, hooksDir: string): SteppedWork<string> {
  const readable = text !== undefined && text.length <= MAX_GIT_CONFIG_BYTES ? text : undefined;
  const parsed = readable === undefined ? undefined : yield* parseGitConfigSteps(readable);
  const kept = parsed
    ? yield* allowedEntriesSteps(parsed)
    : readable === undefined
      ? []
      : yield* salvageGitConfigSteps(readable);
  if (!kept.some((entry) => entry.section === "core" && entry.key === "repositoryformatversion"))
    kept.unshift({ section: "core", key: "repositoryformatversion", value: "0" });
  return yield* serializeGitConfigSteps([
    ...kept,
    { section: "core", key: "hookspath", value: hooksDir },
    { section: "core", key: "fsmonitor", value: "false" },
    { section: "protocol", subsection: "ext", key: "allow", value: "never" },
  ]);
}

/**
 * The sanitised copy of a repository's configuration: the allow-listed entries of `text` (when it is not plain git
 * syntax, only the `[core]` basics and remote/branch urls and refs readable one plain line at a time; when undefined or
 * too large, nothing), `core.repositoryformatversion = 0` unless kept, then settings that keep git from running hooks
 * (an empty read-only `hooksDir`), an fsmonitor, or the `ext::` transport.
 * @param text the file's content, undefined when it could not be read safely
 * @param hooksDir an empty read-only folder as the command sees it
 */
export function sanitizeGitConfig(text: string | undefined, hooksDir: string): string {
  return runAllSteps(sanitizeGitConfigSteps(text, hooksDir));
}
