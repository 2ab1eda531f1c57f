import type { ExecutionRequest, ExecutionResult } from "../executor/executor-types.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import { fileSystemNow } from "../workspace/file-system-clock.js";
import type { StagedCall } from "./call-types.js";
import { withWorkspaceSpan } from "./workspace-spans.js";

/** A finished command and when it started (files in `out/` modified since then are its outputs). */
export interface RanCall {
  result: ExecutionResult;
  /** When it started, read from the file system's own clock (see file-system-clock.ts). */
  startedAt: number;
}

/** The run step: the executor runs the request to its end (timeout, output cap and kill included). */
export async function runCall(
  runtime: RuntimeView<never, "executor" | "workspaces">,
  call: StagedCall,
  request: ExecutionRequest,
): Promise<RanCall> {
  const startedAt = fileSystemNow();
  const result = await withWorkspaceSpan(
    call.config,
    { ...call.span, stage: "run" },
    () => runtime.services.executor.run(request),
    (ran) => ({ exitCode: ran.exitCode, timedOut: ran.timedOut, executor: runtime.services.executor.name }),
  );
  // a workspace keeps only the runs that wrote something
  await runtime.services.workspaces.removeRunFolderIfEmpty(call.runDir);
  return { result, startedAt };
}
