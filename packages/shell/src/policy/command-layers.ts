import { programName } from "./command-rules.js";

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
  const inner = args.slice(index);
  return { inner: inner.length > 0 ? inner : ["echo"] };
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
  command: simple("command", set(), set("-p")),
  exec: simple("exec", set("-a"), set("-c", "-l")),
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
]);

/** Shells: `sh script.sh` runs a file (an interpreter), `sh -c '...'` runs a string (opaque). */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "ash"]);

const GIT_GLOBAL_WITH_VALUE = set(
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--list-cmds",
  "--attr-source",
);
const GIT_GLOBAL_FLAGS = set(
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--no-replace-objects",
  "--bare",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-lazy-fetch",
  "--no-advice",
);

/** `git [global options] subcommand args` → `git subcommand args`. */
function canonicalGit(args: readonly string[]): string[] {
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    if (!arg.startsWith("-")) break;
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (name === "--exec-path") index += 1;
    else if (GIT_GLOBAL_WITH_VALUE.has(name))
      index += arg.includes("=") || (name === arg && arg.length > 2 && !arg.startsWith("--")) ? 1 : 2;
    else if (/^-[Cc]./.test(arg)) index += 1;
    else if (GIT_GLOBAL_FLAGS.has(arg)) index += 1;
    else break; // --version, --help and unknown options: kept as the "subcommand"
  }
  return ["git", ...args.slice(index)];
}

/** `find ... -exec prog args ;` → the programs after -exec, -execdir, -ok, -okdir. */
function findCommands(args: readonly string[]): string[][] {
  const commands: string[][] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[index] as string)) continue;
    const end = args.findIndex((arg, at) => at > index && (arg === ";" || arg === "+"));
    const inner = args.slice(index + 1, end === -1 ? undefined : end);
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
    const name = programName(current[0] as string);
    const args = current.slice(1);
    literal.push([name, ...args]);
    if (name === "git") {
      layers.push(canonicalGit(args));
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
    if (SHELLS.has(name)) {
      if (args.some((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg) || arg === "--command")) {
        return {
          ok: false,
          program: name,
          message: `'${name} -c' runs a command string the policy cannot check; call the program directly`,
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
