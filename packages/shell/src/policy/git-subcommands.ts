// git runs an alias (`git config alias.p push`, `git -c alias.p=push p`) inside the same process, so the argv of a
// start does not say which command git will run. Where rules are checked at exec time, a git subcommand that is not
// one of git's own commands is a word known only at run time: rules on git match it (fail closed).
import { spawnSync } from "node:child_process";
import { DYNAMIC_WORD } from "./dynamic-word.js";

let known: ReadonlySet<string> | undefined;

/** git's own commands (builtins, those in its exec path, `git-*` on PATH), asked of the host's git once per process. */
function gitCommands(): ReadonlySet<string> {
  if (known) return known;
  const listed = spawnSync("git", ["--list-cmds=builtins,main,others"], {
    encoding: "utf8",
    timeout: 10_000,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
  });
  known = new Set(
    listed.status === 0 ? listed.stdout.split("\n").filter((name) => /^[a-z0-9][a-z0-9-]*$/.test(name)) : [],
  );
  return known;
}

/**
 * A canonical git layer (`["git", sub, ...]`, global options already removed) with a subcommand git does not have
 * replaced by a word known only at run time: it may be an alias for any command.
 */
export function withGitAliasesOpaque(layer: readonly string[]): string[] {
  const sub = layer[1];
  if (layer[0] !== "git" || sub === undefined || sub.startsWith("-") || gitCommands().has(sub)) return [...layer];
  return ["git", `${DYNAMIC_WORD}'${sub}' may be a git alias for any command`, ...layer.slice(2)];
}

/** git's global options that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--config-env",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
]);

/**
 * git's argv without its `-c NAME=VALUE` and `--config-env` options (before the subcommand). Where every program git
 * starts is judged at its own start, configuration can change a git command in one way only: an alias, which
 * {@link withGitAliasesOpaque} makes opaque. So at exec time these options need not make the whole command opaque.
 */
export function withoutGitConfigOptions(argv: readonly string[]): string[] {
  const out = [argv[0] as string];
  let at = 1;
  for (; at < argv.length; at += 1) {
    const arg = argv[at] as string;
    if (!arg.startsWith("-")) break;
    if (arg === "-c" || arg === "--config-env") {
      at += 1;
      continue;
    }
    if (arg.startsWith("--config-env=") || (arg.startsWith("-c") && arg.length > 2 && !arg.startsWith("--"))) continue;
    out.push(arg);
    if (VALUE_OPTIONS.has(arg) && at + 1 < argv.length) out.push(argv[(at += 1)] as string);
  }
  return [...out, ...argv.slice(at)];
}
