import { lstat, rmdir } from "node:fs/promises";
import path from "node:path";
import type { ExecutionRequest, ExecutionResult } from "../executor/executor-types.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { StagedCall } from "./call-types.js";
import { withWorkspaceSpan } from "./workspace-spans.js";

/** A finished command and when it started (files in `out/` modified since then are its outputs). */
export interface RanCall {
  result: ExecutionResult;
  startedAt: number;
}

/** The run step: the executor runs the request to its end (timeout, output cap and kill included). */
export async function runCall(
  runtime: RuntimeView<never, "executor">,
  call: StagedCall,
  request: ExecutionRequest,
): Promise<RanCall> {
  const startedAt = Date.now();
  const result = await withWorkspaceSpan(
    call.config,
    { ...call.span, stage: "run" },
    () => runtime.services.executor.run(request),
    (ran) => ({ exitCode: ran.exitCode, timedOut: ran.timedOut, executor: runtime.services.executor.name }),
  );
  await removeIfEmpty(call.runDir);
  return { result, startedAt };
}

/**
 * Removes a run's folder the command left empty (a workspace keeps only the runs that wrote something). `rmdir` never
 * follows the last name and refuses a folder with entries; the folder's random name exists nowhere else.
 */
async function removeIfEmpty(runDir: string): Promise<void> {
  const parent = await lstat(path.dirname(runDir)).catch(() => undefined);
  if (parent?.isDirectory()) await rmdir(runDir).catch(() => undefined);
}
