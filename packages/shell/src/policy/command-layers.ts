import { programName } from "./command-rules.js";
import { DYNAMIC_WORD, isDynamicWord } from "./dynamic-word.js";
import { gitProgramOption } from "./git-program-options.js";
import { isInterpreter, pipedCode } from "./interpreter-input.js";
import { programValuedOption } from "./program-valued-options.js";

/**
 * The programs one command line runs, outermost first, so that deny, allow and approval rules see through wrappers:
 * `env nice -n 5 git -c a=b push origin` runs `env`, `nice` and `git push origin`. Each layer is in canonical form:
 * argv[0] reduced to the program name, and git's global options (`-c`, `-C`, `--no-pager`, ...) removed before the
 * subcommand. A wrapper whose inner command cannot be told from its arguments (`sh -c`, `env -S`, `watch`,
 * `script -c`, `strace`, ...) makes the whole line `opaque`: the policy refuses it.
 */
export type CommandLayers =
  | {
      ok: true;
      /** Canonical layers, for deny and approval rules (the broader match). */
      layers: string[][];
      /** The same layers as typed (argv[0] reduced to the program name), for allow rules (the narrower match). */
      literal: string[][];
      assignments: Array<{ name: string; value: string }>;
    }
  | { ok: false; program: string; message: string; layers: string[][] };

type Unwrap = (
  args: readonly string[],
) => { inner: readonly string[]; assignments?: Array<{ name: string; value: string }> } | string;

/** Splits leading options off `args`: `withValue` options take the next word (or `=value`), `flags` take none. */
function skipOptions(
  args: readonly string[],
  withValue: ReadonlySet<string>,
  flags: ReadonlySet<string>,
  program: string,
): number | string {
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    if (arg === "--") return index + 1;
    if (!arg.startsWith("-") || arg === "-") return index;
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (withValue.has(name)) index += arg.includes("=") || (arg.length > 2 && !arg.startsWith("--")) ? 1 : 2;
    else if (flags.has(arg)) index += 1;
    else if (!arg.startsWith("--") && arg.length > 2 && withValue.has(arg.slice(0, 2))) index += 1; // -n5, -uNAME
    else return `'${program}' option '${arg}' is not understood, so the program it runs cannot be checked`;
  }
  return index;
}

const set = (...names: string[]) => new Set(names);

const envUnwrap: Unwrap = (args) => {
  const start = skipOptions(
    args,
    set("-u", "--unset", "-C", "--chdir"),
    set("-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"),
    "env",
  );
  if (typeof start === "string") return start;
  const assignments: Array<{ name: string; value: string }> = [];
  let index = start;
  for (; index < args.length; index += 1) {
    const match = /^([^=]+)=(.*)$/s.exec(args[index] as string);
    if (!match) break;
    assignments.push({ name: match[1] as string, value: match[2] as string });
  }
  return { inner: args.slice(index), assignments };
};

const simple =
  (program: string, withValue: ReadonlySet<string>, flags: ReadonlySet<string>, positional = 0): Unwrap =>
  (args) => {
    const start = skipOptions(args, withValue, flags, program);
    if (typeof start === "string") return start;
    if (args.length < start + positional) return { inner: [] };
    return { inner: args.slice(start + positional) };
  };

const xargsUnwrap: Unwrap = (args) => {
  const withValue = set(
    "-a",
    "--arg-file",
    "-d",
    "--delimiter",
    "-E",
    "-I",
    "-L",
    "--max-lines",
    "-n",
    "--max-args",
    "-P",
    "--max-procs",
    "-s",
    "--max-chars",
    "--process-slot-var",
  );
  const flags = set(
    "-0",
    "--null",
    "-r",
    "--no-run-if-empty",
    "-t",
    "--verbose",
    "-p",
    "--interactive",
    "-x",
    "--exit",
    "-o",
    "--open-tty",
    "--show-limits",
  );
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    if (arg === "--") {
      index += 1;
      break;
    }
    if (!arg.startsWith("-")) break;
    if (/^(-i|--replace(=.*)?|-e.*|--eof(=.*)?|-l\d*)$/.test(arg)) {
      index += 1;
      continue;
    }
    const skipped = skipOptions([arg, ...args.slice(index + 1)], withValue, flags, "xargs");
    if (typeof skipped === "string") return skipped;
    index += skipped;
  }
  // xargs appends what it reads on stdin: the arguments (even the subcommand, `xargs git`) are known only at run time
  const inner = args.slice(index);
  return { inner: [...(inner.length > 0 ? inner : ["echo"]), `${DYNAMIC_WORD}xargs input`] };
};

const timeUnwrap = simple(
  "time",
  set("-f", "--format", "-o", "--output"),
  set("-a", "--append", "-p", "--portability", "-v", "--verbose", "-q", "--quiet"),
);

const wrappers: Record<string, Unwrap> = {
  env: envUnwrap,
  nice: simple("nice", set("-n", "--adjustment"), set()),
  nohup: simple("nohup", set(), set()),
  setsid: simple("setsid", set(), set("-c", "--ctty", "-f", "--fork", "-w", "--wait")),
  timeout: simple(
    "timeout",
    set("-s", "--signal", "-k", "--kill-after"),
    set("--preserve-status", "--foreground", "-v", "--verbose"),
    1,
  ),
  stdbuf: simple("stdbuf", set("-i", "--input", "-o", "--output", "-e", "--error"), set()),
  ionice: simple("ionice", set("-c", "--class", "-n", "--classdata"), set("-t", "--ignore")),
  time: timeUnwrap,
  xargs: xargsUnwrap,
  command: (args) =>
    args.some((arg) => arg === "-v" || arg === "-V") ? { inner: [] } : simple("command", set(), set("-p"))(args),
};

/** Programs that run a command given in a form this checker cannot read (a shell string, a trace, a terminal). */
const OPAQUE_RUNNERS = new Set([
  "watch",
  "script",
  "strace",
  "ltrace",
  "gdb",
  "valgrind",
  "chrt",
  "taskset",
  "flock",
  "parallel",
  "unbuffer",
  "expect",
  "busybox",
  "eval",
  "builtin",
  "su",
  "sudo",
  "doas",
  "runuser",
  "setpriv",
  "capsh",
  "prlimit",
  "nsenter",
  "unshare",
  "chroot",
  "firejail",
  "bwrap",
  "systemd-run",
  "at",
  "batch",
  "exec",
  "setarch",
  "linux32",
  "linux64",
  "i386",
  "x86_64",
  "uname26",
  "fakeroot",
  "fakechroot",
  "sg",
  "newgrp",
  "proot",
  "faketime",
  "torsocks",
  "proxychains",
  "proxychains4",
  "tsocks",
  "rlwrap",
  "xvfb-run",
  "dbus-run-session",
  "dbus-launch",
  "ssh-agent",
  "sshpass",
  "catchsegv",
  "eatmydata",
  "nocache",
  "chronic",
  "ifne",
  "run-parts",
  "start-stop-daemon",
  "numactl",
  "cgexec",
  "pkexec",
]);

/** Shells: `sh script.sh` runs a file (an interpreter), `sh -c '...'` runs a string (opaque). */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "ash"]);

/** git's global options that change nothing about which code runs (`-C dir` only changes the folder). */
const GIT_SAFE_WITH_VALUE = set("-C");
const GIT_SAFE_FLAGS = set(
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-advice",
);

/**
 * git's own commands: an alias or an external `git-name` program can never take one of these names, so a subcommand
 * on this list runs what it says. Any other word may be a repository alias (`alias.p=push`) or autocorrected.
 */
const GIT_COMMANDS = new Set(
  (
    "add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore check-mailmap " +
    "check-ref-format checkout checkout-index cherry cherry-pick clean clone column commit commit-graph commit-tree " +
    "config count-objects describe diff diff-files diff-index diff-tree difftool fetch fetch-pack for-each-ref " +
    "for-each-repo format-patch fsck gc get-tar-commit-id grep hash-object help index-pack init interpret-trailers " +
    "log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-tree mktag " +
    "mktree multi-pack-index mv name-rev notes pack-objects pack-refs prune prune-packed pull push range-diff " +
    "read-tree rebase reflog remote repack replace rerere reset restore rev-list rev-parse revert rm shortlog show " +
    "show-branch show-index show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag " +
    "unpack-file unpack-objects update-index update-ref var verify-commit verify-pack verify-tag version " +
    "whatchanged worktree write-tree"
  ).split(" "),
);

/**
 * `git [global options] subcommand args` → `git subcommand args`, or why it is opaque: a global option not on the
 * known-safe list (`-c`, `--config-env`, `--git-dir`, `--work-tree`, `--exec-path=`, ...) can make git run other code,
 * and a subcommand git does not ship may be a repository alias or autocorrected to another one.
 */
function canonicalGit(args: readonly string[]): string[] | string {
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    if (isDynamicWord(arg)) break;
    if (!arg.startsWith("-")) break;
    if (arg === "--version" || arg === "--help" || arg === "--exec-path" || arg === "--html-path") return ["git", arg];
    if (GIT_SAFE_WITH_VALUE.has(arg)) index += 2;
    else if (/^-C./.test(arg)) index += 1;
    else if (GIT_SAFE_FLAGS.has(arg)) index += 1;
    else
      return `git option '${arg}' can change which code git runs (config, repository or program path); it is not on the known-safe list`;
  }
  const subcommand = args[index];
  if (subcommand === undefined) return ["git"];
  if (!isDynamicWord(subcommand) && !GIT_COMMANDS.has(subcommand))
    return `'git ${subcommand}' is not a command git ships: it may be a repository alias or be autocorrected to another command`;
  const program = isDynamicWord(subcommand) ? undefined : gitProgramOption(subcommand, args.slice(index + 1));
  if (program) return program;
  return ["git", ...args.slice(index)];
}

/** `find ... -exec prog args ;` → the programs after -exec, -execdir, -ok, -okdir. */
function findCommands(args: readonly string[]): string[][] {
  const commands: string[][] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[index] as string)) continue;
    let end = index + 1;
    while (end < args.length && args[end] !== ";" && args[end] !== "+") end += 1;
    if (end === args.length) end = -1;
    // `{}` is each file found: in command position the program is known only at run time
    const inner = args
      .slice(index + 1, end === -1 ? undefined : end)
      .map((arg, at) => (at === 0 && arg.includes("{}") ? `${DYNAMIC_WORD}a file find finds` : arg));
    if (inner.length > 0) commands.push([...inner]);
    if (end === -1) break;
    index = end;
  }
  return commands;
}

/**
 * Unwraps a command line (argv as typed) into the programs it runs; see {@link CommandLayers}.
 * @example commandLayers(["env", "nice", "git", "--no-pager", "push"]) // layers: [["env", ...], ["nice", ...], ["git", "push"]]
 */
export function commandLayers(argv: readonly string[]): CommandLayers {
  const layers: string[][] = [];
  const literal: string[][] = [];
  const assignments: Array<{ name: string; value: string }> = [];
  const pending: string[][] = [[...argv]];
  while (pending.length > 0) {
    const current = pending.shift() as string[];
    if (current.length === 0) continue;
    if (layers.length >= 16)
      return { ok: false, program: current[0] as string, message: "too many nested wrapper programs", layers };
    const first = current[0] as string;
    const name = isDynamicWord(first) ? first : programName(first);
    const args = current.slice(1);
    literal.push([name, ...args]);
    if (isDynamicWord(name)) {
      layers.push([name, ...args]);
      return {
        ok: false,
        program: name,
        message: `the program is ${name.slice(1)}, known only at run time`,
        layers,
      };
    }
    if (name === "git") {
      const canonical = canonicalGit(args);
      if (typeof canonical === "string") {
        layers.push([name, ...args]);
        return { ok: false, program: name, message: canonical, layers };
      }
      layers.push(canonical);
      continue;
    }
    layers.push([name, ...args]);
    if (OPAQUE_RUNNERS.has(name)) {
      return {
        ok: false,
        program: name,
        message: `'${name}' runs other programs in a way the policy cannot check; it is refused`,
        layers,
      };
    }
    const piped =
      (isInterpreter(name, SHELLS) ? pipedCode(name, args, SHELLS.has(name)) : undefined) ??
      programValuedOption(name, args);
    if (piped) return { ok: false, program: name, message: piped, layers };
    if (SHELLS.has(name)) {
      if (args.some((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg) || arg === "--command")) {
        return {
          ok: false,
          program: name,
          message: `'${name} -c' runs a command string the policy cannot check; call the program directly`,
          layers,
        };
      }
      const script = args.find((arg) => !arg.startsWith("-") && !arg.startsWith("+"));
      if (script !== undefined && isDynamicWord(script))
        return { ok: false, program: name, message: `'${name}' runs a script named only at run time`, layers };
      const informational = args.length > 0 && args.every((arg) => arg === "--version" || arg === "--help");
      if (!informational && (script === undefined || args.some((arg) => /^-[A-Za-z]*[si]/.test(arg)))) {
        return {
          ok: false,
          program: name,
          message: `'${name}' without a script file reads its commands from stdin, which the policy cannot check; run a script file (${name} file.sh)`,
          layers,
        };
      }
      continue;
    }
    if (name === "find") {
      pending.push(...findCommands(args));
      continue;
    }
    const unwrap = wrappers[name];
    if (!unwrap) continue;
    const unwrapped = unwrap(args);
    if (typeof unwrapped === "string") return { ok: false, program: name, message: unwrapped, layers };
    assignments.push(...(unwrapped.assignments ?? []));
    if (unwrapped.inner.length > 0) pending.push([...unwrapped.inner]);
  }
  return { ok: true, layers, literal, assignments };
}
