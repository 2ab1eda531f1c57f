// git subcommand options whose value is a program (or a command line) git runs, and subcommands that write git's
// own configuration: the checker cannot judge what they run, so they are opaque.
import { isDynamicWord } from "./dynamic-word.js";

/** Per subcommand: long options (with or without `=value`) and short option letters that name a program to run. */
const PROGRAM_OPTIONS: Record<string, { long: readonly string[]; short: string }> = {
  clone: { long: ["--upload-pack", "--template", "--config", "--separate-git-dir"], short: "uc" },
  // a template folder's config and info/attributes become the new repository's; a separate git folder takes a name
  // the checker does not know as git's (its config is then written like any file)
  init: { long: ["--template", "--separate-git-dir"], short: "" },
  fetch: { long: ["--upload-pack"], short: "" },
  pull: { long: ["--upload-pack"], short: "" },
  "ls-remote": { long: ["--upload-pack"], short: "" },
  push: { long: ["--receive-pack", "--exec"], short: "" },
  archive: { long: ["--exec"], short: "" },
  rebase: { long: ["--exec"], short: "x" },
  difftool: { long: ["--extcmd", "--tool"], short: "xt" },
  mergetool: { long: ["--tool"], short: "t" },
  grep: { long: ["--open-files-in-pager"], short: "O" },
  submodule: { long: [], short: "" },
  bisect: { long: [], short: "" },
  config: { long: [], short: "" },
};

/** `git config` options that only read. */
const CONFIG_READS = new Set([
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "--show-origin",
  "--show-scope",
  "--name-only",
  "get",
  "list",
]);

const CONFIG_WRITES =
  /^(--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)|-e|set|unset|rename-section|remove-section|edit)$/;

/** True when `git config args` may set a value (a write option, or a name and a value). */
function configWrites(args: readonly string[]): boolean {
  if (args.some((arg) => isDynamicWord(arg) || CONFIG_WRITES.test(arg))) return true;
  const positional = args.filter((arg) => !arg.startsWith("-"));
  return positional.length >= 2 && !args.some((arg) => CONFIG_READS.has(arg));
}

/**
 * Why `git <subcommand> args` (canonical: global options removed) runs a program named in its arguments or writes
 * git's configuration, or undefined. `git submodule foreach`, `git bisect run` and a `git config` that sets a value
 * are opaque too: each runs or stores a command the line does not show as a program.
 */
export function gitProgramOption(subcommand: string, args: readonly string[]): string | undefined {
  const known = Object.hasOwn(PROGRAM_OPTIONS, subcommand) ? PROGRAM_OPTIONS[subcommand] : undefined;
  if (!known) return undefined;
  if (subcommand === "submodule" && args.some((arg) => arg === "foreach" || isDynamicWord(arg)))
    return "'git submodule foreach' runs a command in every submodule";
  if (subcommand === "bisect" && args.some((arg) => arg === "run" || isDynamicWord(arg)))
    return "'git bisect run' runs a command at every step";
  if (subcommand === "config" && configWrites(args))
    return "'git config' that sets a value writes the repository's configuration, which can name programs git runs";
  for (const arg of args) {
    if (arg === "--") break;
    if (isDynamicWord(arg)) return `'git ${subcommand}' has an option known only at run time`;
    if (known.long.some((option) => arg === option || arg.startsWith(`${option}=`)))
      return `'git ${subcommand} ${arg}' names a program (or configuration) git runs`;
    if (/^-[A-Za-z]/.test(arg) && !arg.startsWith("--") && [...known.short].some((letter) => arg.includes(letter)))
      return `'git ${subcommand} ${arg}' may name a program git runs`;
  }
  return undefined;
}
