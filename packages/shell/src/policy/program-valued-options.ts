// Options of common tools whose value is a program or a command line the tool runs (`tar --to-command`,
// `rsync -e`, `ssh -o ProxyCommand=`, ...): the checker does not read such a value, so the call is opaque.
import { isDynamicWord } from "./dynamic-word.js";

/** Per program: long options (alone or `--x=value`) and short option letters whose value is run as a program. */
const PROGRAM_VALUED: Record<string, { long: readonly string[]; short: string }> = {
  tar: {
    long: [
      "--to-command",
      "--use-compress-program",
      "--checkpoint-action",
      "--info-script",
      "--new-volume-script",
      "--rsh-command",
    ],
    short: "IF",
  },
  rsync: { long: ["--rsh", "--rsync-path"], short: "e" },
  sort: { long: ["--compress-program"], short: "" },
  zip: { long: ["--unzip-command"], short: "" },
  ssh: { long: [], short: "oSF" },
  scp: { long: [], short: "oSF" },
  sftp: { long: [], short: "oSFD" },
  man: { long: ["--pager", "--html"], short: "PH" },
};

/**
 * Why `name args` runs a program named in an option value, or undefined: a listed option, or for `zip` its `-TT`,
 * or any option of a listed program known only at run time.
 */
export function programValuedOption(name: string, args: readonly string[]): string | undefined {
  const known = Object.hasOwn(PROGRAM_VALUED, name) ? PROGRAM_VALUED[name] : undefined;
  if (!known) return undefined;
  for (const arg of args) {
    if (arg === "--") break;
    if (isDynamicWord(arg)) return `'${name}' has an argument known only at run time that may name a program it runs`;
    if (known.long.some((option) => arg === option || arg.startsWith(`${option}=`)))
      return `'${name} ${arg}' names a program ${name} runs, which the policy cannot check`;
    if (name === "zip" && arg.startsWith("-TT"))
      return `'zip -TT' names a program zip runs, which the policy cannot check`;
    const letters = /^-([A-Za-z]+)/.exec(arg)?.[1];
    if (letters && !arg.startsWith("--") && [...known.short].some((letter) => letters.includes(letter)))
      return `'${name} ${arg}' may name a program ${name} runs (or a configuration that does), which the policy cannot check`;
  }
  return undefined;
}
