import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { runCommandCall } from "../../call/run-command-call.js";
import type { ShellRuntime } from "../../runtime/shell-runtime.js";
import { commandFields } from "../../call/command-input-schema.js";

/** Input of `shell`. */
export const shellSchema = z.object(commandFields);

/**
 * The general `shell` tool: runs a bash command line (every command in it checked, programs resolved on a fixed PATH)
 * in the thread's workspace under the hook's policy.
 * @param runtime the shared shell runtime
 */
export function createShellTool(runtime: ShellRuntime) {
  return tool(async (input, config) => runCommandCall(runtime, { tool: "shell", ...input }, config), {
    name: "shell",
    description:
      "Run a command line in this conversation's workspace (files persist across calls; put results in out/). Returns exit code, stdout, stderr, timed_out, duration and the files produced in out/.",
    schema: shellSchema,
  });
}
