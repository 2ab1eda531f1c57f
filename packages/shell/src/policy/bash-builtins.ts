// What the checker says about a bash builtin: each one it lets run has its arguments checked; the rest fail closed.
import type { SimpleShellCommand } from "../command/shell-line-types.js";
import { isSpecialVariable } from "../command/shell-expansions.js";

/** The verdict on one builtin call. `program`: check it like a program (rules, but no PATH lookup: `kill`). */
export type BuiltinVerdict =
  | { kind: "ok" }
  | { kind: "program" }
  | { kind: "opaque"; message: string }
  | { kind: "cd"; target?: string };

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every bash 5 builtin and the reserved words that run like commands (`enable -a`, `compgen -k`). */
const BASH_BUILTINS = new Set(
  (
    ". : [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue coproc declare dirs " +
    "disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout " +
    "mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test time times " +
    "trap true type typeset ulimit umask unalias unset wait"
  ).split(" "),
);

/** True when bash runs `name` itself instead of looking it up on PATH. */
export function isBashBuiltin(name: string): boolean {
  return BASH_BUILTINS.has(name);
}

/** Builtins that run code the line does not show, or change how later words are read: always opaque. */
const FAIL_CLOSED: Record<string, string> = {
  eval: "'eval' runs a string as code, which cannot be checked before running; write the command itself",
  source: "'source' runs a file's commands, which cannot be checked before running; run it as a script (bash file.sh)",
  ".": "'.' runs a file's commands, which cannot be checked before running; run it as a script (bash file.sh)",
  exec: "'exec' replaces the shell or its file descriptors; run the program directly",
  alias: "'alias' changes what later words run; write the command itself",
  unalias: "'unalias' changes what later words run",
  enable: "'enable' turns builtins on and off or loads them from files",
  builtin: "'builtin' is refused; call the builtin directly",
  coproc: "'coproc' starts a co-process the checker cannot follow",
  trap: "'trap' runs code later, on a signal or on exit; it cannot be checked before running",
  declare:
    "'declare' can make later assignments arithmetic (declare -i) or name references (declare -n); use NAME=value",
  typeset: "'typeset' can make later assignments arithmetic or name references; use NAME=value",
  readonly: "'readonly' is refused; use NAME=value",
  let: "'let' evaluates arithmetic on values known only at run time; use $((...)) on numbers",
  hash: "'hash' changes which file a program name runs",
  fc: "'fc' runs commands from the history",
  history: "'history' is refused",
  bind: "'bind' is refused",
  complete: "'complete' is refused",
  compgen: "'compgen' can run functions and commands (-F, -C)",
  compopt: "'compopt' is refused",
  pushd: "'pushd' changes folders in a way the checker does not follow; use cd with a folder in the workspace",
  popd: "'popd' changes folders in a way the checker does not follow; use cd with a folder in the workspace",
  dirs: "'dirs' is refused",
  ulimit: "'ulimit' is refused (the runtime sets the limits)",
  suspend: "'suspend' is refused",
  logout: "'logout' is refused",
  caller: "'caller' is refused",
  disown: "'disown' would leave a process running after the command",
  bg: "job control is refused",
  fg: "job control is refused",
  jobs: "job control is refused",
  help: "'help' is refused",
};

/** `set` options that only change how errors and tracing work. */
const SET_OPTIONS = new Set([
  "-e",
  "+e",
  "-u",
  "+u",
  "-x",
  "+x",
  "-v",
  "+v",
  "-f",
  "+f",
  "-C",
  "+C",
  "-eu",
  "-ux",
  "-ex",
  "-eux",
  "-euo",
  "-eo",
  "+o",
  "-o",
  "--",
]);
const SET_LONG = new Set(["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber"]);
/** `shopt` options that only change globbing and matching. */
const SHOPT_SAFE = new Set([
  "nullglob",
  "globstar",
  "extglob",
  "dotglob",
  "nocaseglob",
  "failglob",
  "nocasematch",
  "lastpipe",
  "globasciiranges",
]);

function values(command: SimpleShellCommand): Array<string | undefined> {
  return command.words.slice(1).map((word) => word.value);
}

function namesOnly(args: Array<string | undefined>, what: string): BuiltinVerdict {
  for (const arg of args) {
    if (arg === undefined) return { kind: "opaque", message: `${what} takes a variable name known only at run time` };
    if (arg.startsWith("-")) continue;
    if (!PLAIN_NAME.test(arg) || isSpecialVariable(arg))
      return {
        kind: "opaque",
        message: `${what} '${arg}' is not a plain variable name the line may set (subscripts are evaluated as code)`,
      };
  }
  return { kind: "ok" };
}

function checkSet(args: Array<string | undefined>): BuiltinVerdict {
  for (const [index, arg] of args.entries()) {
    if (arg === undefined) return { kind: "opaque", message: "'set' with an argument known only at run time" };
    if (
      args[index - 1] === "-o" ||
      args[index - 1] === "+o" ||
      args[index - 1] === "-euo" ||
      args[index - 1] === "-eo"
    ) {
      if (!SET_LONG.has(arg)) return { kind: "opaque", message: `'set -o ${arg}' is refused` };
      continue;
    }
    if (args.slice(0, index).includes("--")) continue; // positional parameters
    if (!SET_OPTIONS.has(arg))
      return { kind: "opaque", message: `'set ${arg}' is refused (set -e, -u, -x, -o pipefail and set -- work)` };
  }
  return { kind: "ok" };
}

function checkShopt(args: Array<string | undefined>): BuiltinVerdict {
  for (const arg of args) {
    if (arg === "-s" || arg === "-u" || arg === "-q" || arg === "-p") continue;
    if (arg === undefined || !SHOPT_SAFE.has(arg))
      return {
        kind: "opaque",
        message: `'shopt ${arg ?? "…"}' is refused (expand_aliases and others change what runs); globbing options work`,
      };
  }
  return { kind: "ok" };
}

/**
 * Checks a builtin call. Builtins that run hidden code (eval, source, trap, alias, ...) are opaque; those that
 * assign variables take plain names only (`read 'a[$(cmd)]'` would run the subscript); `cd` is followed.
 */
export function checkBuiltin(command: SimpleShellCommand): BuiltinVerdict {
  const name = command.words[0]?.value ?? "";
  const failClosed = FAIL_CLOSED[name];
  if (failClosed) return { kind: "opaque", message: failClosed };
  const args = values(command);
  switch (name) {
    case "cd": {
      const targets = args.filter((arg) => arg !== "--");
      if (targets.length !== 1 || targets[0] === undefined || targets[0] === "-" || targets[0].startsWith("-"))
        return {
          kind: "opaque",
          message: "'cd' needs one folder in the workspace, written out (not '-', '~' or a variable)",
        };
      return { kind: "cd", target: targets[0] };
    }
    case "read":
      return namesOnly(
        args.filter((_, index) => !["-d", "-n", "-N", "-p", "-t", "-u", "-i"].includes(args[index - 1] ?? "")),
        "read",
      );
    case "getopts":
      return namesOnly(args.slice(1, 2), "getopts");
    case "mapfile":
    case "readarray":
      if (args.some((arg) => arg === undefined || /^-[A-Za-z]*C/.test(arg)))
        return { kind: "opaque", message: `'${name} -C' runs a callback; it is refused` };
      return namesOnly(
        args.filter((_, index) => !["-d", "-n", "-O", "-s", "-u", "-c"].includes(args[index - 1] ?? "")),
        name,
      );
    case "printf": {
      const at = args.indexOf("-v");
      return at === -1 ? { kind: "ok" } : namesOnly([args[at + 1]], "printf -v");
    }
    case "local":
    case "export":
    case "unset":
      return namesOnly(
        args.map((arg) => (arg?.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg)),
        `'${name}'`,
      );
    case "test":
    case "[": {
      const at = args.indexOf("-v");
      return at === -1 ? { kind: "ok" } : namesOnly([args[at + 1]], "test -v");
    }
    case "set":
      return checkSet(args);
    case "shopt":
      return checkShopt(args);
    case "wait":
      return args.includes("-p") ? { kind: "opaque", message: "'wait -p' is refused" } : { kind: "ok" };
    case "kill":
    case "command":
    case "time":
      return { kind: "program" };
    default:
      return { kind: "ok" };
  }
}
