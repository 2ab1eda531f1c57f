// What survives of a configuration file that is not plain git syntax (the fail-closed path of the sanitiser): line by
// line, only `[core]` basics and the `url`/`fetch`/`push` of `[remote "<name>"]` and `remote`/`merge` of
// `[branch "<name>"]`, each value a single plain token; every other line, and every line after one that may continue
// (a trailing backslash), is dropped.
import { GIT_CONFIG_ITEMS_PER_STEP, type GitConfigEntry } from "./git-config-parse.js";
import type { SteppedWork } from "./stepped-work.js";

const KEPT: Readonly<Record<string, ReadonlySet<string>>> = {
  core: new Set(["repositoryformatversion", "bare", "filemode", "logallrefupdates", "ignorecase"]),
  remote: new Set(["url", "pushurl", "fetch", "push"]),
  branch: new Set(["remote", "merge"]),
};

const HEADER = /^\s*\[\s*(core|remote|branch)(?:\s+"([A-Za-z0-9._/-]{1,200})")?\s*\]\s*$/i;
const ENTRY = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*([A-Za-z0-9._:/@+*~^%-]{1,4096})\s*$/;

/** The entries of `text` that can be read one plain line at a time, limited to the sections above, in steps. */
export function* salvageGitConfigSteps(text: string): SteppedWork<GitConfigEntry[]> {
  const entries: GitConfigEntry[] = [];
  let section: { section: string; subsection?: string } | undefined;
  for (const [index, line] of text.split("\n").entries()) {
    if (index > 0 && index % GIT_CONFIG_ITEMS_PER_STEP === 0) yield;
    if (line.trimEnd().endsWith("\\")) break;
    const header = HEADER.exec(line);
    if (header) {
      const name = (header[1] as string).toLowerCase();
      const subsection = header[2];
      // [core] has no subsection; [remote "<name>"] and [branch "<name>"] need one
      if ((name === "core") !== (subsection === undefined)) section = undefined;
      else section = subsection === undefined ? { section: name } : { section: name, subsection };
      continue;
    }
    if (/^\s*\[/.test(line)) section = undefined;
    const entry = ENTRY.exec(line);
    if (!section || !entry) continue;
    const key = (entry[1] as string).toLowerCase();
    if (KEPT[section.section]?.has(key)) entries.push({ ...section, key, value: entry[2] as string });
  }
  return entries;
}
