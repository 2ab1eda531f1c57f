import { createBubblewrapExecutor, type BubblewrapExecutorOptions } from "./bubblewrap-executor.js";
import type { CommandLimits } from "./command-limits.js";
import type { CommandExecutor } from "./executor-types.js";
import { createLocalExecutor } from "./local-executor.js";
import { resolveExecutable } from "../policy/program-resolution.js";

/** `auto`: bubblewrap where it works here, else local with a warning saying it is not a sandbox. */
function autoExecutor(bubblewrap: BubblewrapExecutorOptions | undefined, limits: CommandLimits | undefined) {
  if (process.platform !== "linux" || (bubblewrap?.bwrapPath ?? resolveExecutable("bwrap")) === undefined) {
    process.emitWarning(
      "@skillgraph/shell: executor 'auto' found no bubblewrap here and runs commands with the 'local' executor, which is NOT a sandbox (see docs/security.md)",
    );
    return createLocalExecutor({ limits });
  }
  try {
    return createBubblewrapExecutor({ ...bubblewrap, limits });
  } catch (error) {
    // bwrap is installed but cannot sandbox here (e.g. user namespaces disabled): say so, run locally
    process.emitWarning(
      `@skillgraph/shell: executor 'auto' falls back to 'local', which is NOT a sandbox: ${(error as Error).message}`,
    );
    return createLocalExecutor({ limits });
  }
}

/** The executor an `executor` option names (a custom one is used as given), under the given limits. */
export function chooseExecutor(
  choice: "auto" | "local" | "bubblewrap" | CommandExecutor,
  bubblewrap: BubblewrapExecutorOptions | undefined,
  limits: CommandLimits | undefined,
): CommandExecutor {
  if (typeof choice === "object") return choice;
  if (choice === "local") return createLocalExecutor({ limits });
  if (choice === "bubblewrap") return createBubblewrapExecutor({ ...bubblewrap, limits });
  return autoExecutor(bubblewrap, limits);
}
