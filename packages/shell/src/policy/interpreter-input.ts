// Shells and interpreters whose code comes from a pipe: stdin, `/dev/stdin`, `/dev/fd/N`, a `<(...)` argument. The
// checker sees the program's name but not the code it is fed, so such a call is opaque.
import { DYNAMIC_WORD, isDynamicWord } from "./dynamic-word.js";

/** Programs that run code given as a file argument, or read from stdin without one. */
const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "node",
  "nodejs",
  "perl",
  "ruby",
  "php",
  "lua",
  "Rscript",
  "deno",
  "bun",
  "tclsh",
  "awk",
  "gawk",
  "mawk",
  "nawk",
]);

/** Options that give the code inline (so stdin is not read as code). */
const INLINE = /^(-[A-Za-z]*[cemEpr]|--eval|--print|--command|-)$/;

/** Paths that name the process's own input or descriptors. */
const PIPE_PATH = /^(\/dev\/(stdin|fd\/.*|tty)|\/proc\/[^/]+\/fd\/.*|-)$/;

/** The marker a `<(...)` word carries (see shell-word-value.ts). */
const PROCESS_SUBSTITUTION = `${DYNAMIC_WORD}a <(...) pipe`;

/** True when `name` runs code from files or stdin (a shell, python, node, perl, awk, ...). */
export function isInterpreter(name: string, shells: ReadonlySet<string>): boolean {
  return shells.has(name) || INTERPRETERS.has(name);
}

/**
 * Why an interpreter call runs code the checker cannot see, or undefined: a `<(...)` or `/dev/stdin`-like argument,
 * or (not for shells, whose stdin rule is in command-layers.ts) no script and no inline code, so stdin is the program.
 */
export function pipedCode(name: string, args: readonly string[], shell: boolean): string | undefined {
  for (const arg of args) {
    if (arg === PROCESS_SUBSTITUTION || PIPE_PATH.test(arg))
      return `'${name}' would run code read from '${arg === PROCESS_SUBSTITUTION ? "<(...)" : arg}', which the policy cannot check; run a script file`;
  }
  if (shell) return undefined;
  const informational = args.some((arg) => /^(--version|-V|--help|-h)$/.test(arg));
  const positional = args.some((arg) => isDynamicWord(arg) || !arg.startsWith("-"));
  if (informational || positional || args.some((arg) => INLINE.test(arg) && arg !== "-")) return undefined;
  return `'${name}' without a script file reads its program from stdin, which the policy cannot check; run a script file`;
}
