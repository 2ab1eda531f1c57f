// What the checker says about a bash builtin: each one it lets run has its arguments checked; the rest fail closed.
import type { SimpleShellCommand } from "../command/shell-line-types.js";
import { isSpecialVariable } from "../command/shell-expansions.js";
import { testOperandProblem } from "../command/test-operands.js";

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
    if (/^-[A-Za-z]+$/.test(arg)) continue;
    if (arg.startsWith("-"))
      return {
        kind: "opaque",
        message: `${what} option '${arg}' holds a value glued to it; write the option and its value apart`,
      };
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

type Check = (args: Array<string | undefined>, name: string) => BuiltinVerdict;

const OK: BuiltinVerdict = { kind: "ok" };
/** Arguments after these options are their values, not names. */
const skipValues = (args: Array<string | undefined>, options: readonly string[]) =>
  args.filter((_, index) => !options.includes(args[index - 1] ?? ""));

function checkCd(args: Array<string | undefined>): BuiltinVerdict {
  const targets = args.filter((arg) => arg !== "--");
  const target = targets[0];
  if (targets.length !== 1 || target === undefined || target === "-" || target.startsWith("-"))
    return {
      kind: "opaque",
      message: "'cd' needs one folder in the workspace, written out (not '-', '~' or a variable)",
    };
  return { kind: "cd", target };
}

function checkMapfile(args: Array<string | undefined>, name: string): BuiltinVerdict {
  if (args.some((arg) => arg === undefined || /^-[A-Za-z]*C/.test(arg)))
    return { kind: "opaque", message: `'${name} -C' runs a callback; it is refused` };
  return namesOnly(skipValues(args, ["-d", "-n", "-O", "-s", "-u", "-c"]), name);
}

/** The builtins the checker lets run, each with its argument check; any other builtin is `ok` (echo, pwd, true, ...). */
const CHECKS: Record<string, Check> = {
  cd: checkCd,
  read: (args) => namesOnly(skipValues(args, ["-d", "-n", "-N", "-p", "-t", "-u", "-i"]), "read"),
  getopts: (args) => namesOnly(args.slice(1, 2), "getopts"),
  mapfile: checkMapfile,
  readarray: checkMapfile,
  printf: (args) => namesOnly(optionOperands(args, "v"), "printf -v"),
  local: (args, name) => withoutAttributes(args, name) ?? namesOnly(args.map(nameOfAssignment), `'${name}'`),
  export: (args, name) => withoutAttributes(args, name) ?? namesOnly(args.map(nameOfAssignment), `'${name}'`),
  unset: (args, name) => namesOnly(args.map(nameOfAssignment), `'${name}'`),
  test: checkTest,
  "[": checkTest,
  set: checkSet,
  shopt: checkShopt,
  wait: (args) => (args.includes("-p") ? { kind: "opaque", message: "'wait -p' is refused" } : OK),
  kill: () => ({ kind: "program" }),
  command: () => ({ kind: "program" }),
  time: () => ({ kind: "program" }),
};

function checkTest(args: Array<string | undefined>): BuiltinVerdict {
  const problem = testOperandProblem(args);
  return problem ? { kind: "opaque", message: problem } : OK;
}

/**
 * The operands of every `-x` option in `args` (`-x NAME`, glued `-xNAME`, or `-abx NAME` in a cluster) before the
 * first operand: each is a variable name bash assigns, so each must be a plain name. A word known only at run time in
 * option position may be `-x`.
 */
function optionOperands(args: Array<string | undefined>, letter: string): Array<string | undefined> {
  const operands: Array<string | undefined> = [];
  for (const [index, arg] of args.entries()) {
    if (arg === undefined) {
      operands.push(undefined); // an option known only at run time may be -v
      break;
    }
    if (index > 0 && operands.length > 0 && args[index - 1] === `-${letter}`) continue;
    if (arg === "--" || !arg.startsWith("-")) break;
    const cluster = /^-([A-Za-z]*)$/.exec(arg);
    if (arg === `-${letter}` || (cluster?.[1]?.endsWith(letter) ?? false)) operands.push(args[index + 1]);
    else if (arg.startsWith(`-${letter}`)) operands.push(arg.slice(2));
    else if (/^-[A-Za-z]+/.test(arg) && arg.includes(letter)) operands.push(arg);
  }
  return operands;
}

/** `local -i`, `local -n`, `export -f`, ...: attributes change how later assignments are read; opaque. */
function withoutAttributes(args: Array<string | undefined>, name: string): BuiltinVerdict | undefined {
  const at = args.findIndex((arg) => arg === undefined || (/^[-+]/.test(arg) && !(name === "export" && arg === "-p")));
  if (at === -1) return undefined;
  return {
    kind: "opaque",
    message: `'${name} ${args[at] ?? "…"}': attribute options (-i, -n, -a, -f, ...) change how later assignments are read; use NAME=value`,
  };
}

function nameOfAssignment(arg: string | undefined): string | undefined {
  return arg?.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
}

/**
 * Checks a builtin call. Builtins that run hidden code (eval, source, trap, alias, ...) are opaque; those that
 * assign variables take plain names only (`read 'a[$(cmd)]'` would run the subscript); `cd` is followed.
 */
export function checkBuiltin(command: SimpleShellCommand): BuiltinVerdict {
  const name = command.words[0]?.value ?? "";
  const failClosed = Object.hasOwn(FAIL_CLOSED, name) ? FAIL_CLOSED[name] : undefined;
  if (failClosed) return { kind: "opaque", message: failClosed };
  const check = Object.hasOwn(CHECKS, name) ? CHECKS[name] : undefined;
  return check ? check(values(command), name) : OK;
}
