import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { runCommandCall } from "../../call/run-command-call.js";
import type { ShellRuntime } from "../../runtime/shell-runtime.js";
import { commandFields } from "../../call/command-input-schema.js";

/** Input of `run_skill_script`. */
export const runSkillScriptSchema = z.object({
  skill: z.string().describe("Name of the skill whose script to run (read the skill first)."),
  ...commandFields,
});

/**
 * The `run_skill_script` tool: runs a skill's script or a program inside that skill's context (skill folder read-only
 * as $SKILL_DIR, relative `scripts/...` paths resolve in it, cwd = the thread's workspace, files written to out/ are reported).
 * @param runtime the shared shell runtime
 */
export function createRunSkillScriptTool(runtime: ShellRuntime) {
  return tool(async (input, config) => runCommandCall(runtime, { tool: "run_skill_script", ...input }, config), {
    name: "run_skill_script",
    description:
      "Run a script of a loaded skill (e.g. command 'scripts/build.sh --title Q3' or 'python3 $SKILL_DIR/scripts/x.py in/data.csv'). Runs in the thread's workspace; write results to out/. Returns exit code, stdout, stderr, timed_out, duration and the files produced.",
    schema: runSkillScriptSchema,
  });
}
