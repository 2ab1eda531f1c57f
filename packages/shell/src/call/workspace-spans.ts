import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import type { RunnableConfig } from "@langchain/core/runnables";

/** Name of the callback custom events a shell tool call sends for its stages (visible in LangSmith traces). */
export const WORKSPACE_SPAN_EVENT = "skillgraph_shell_stage";

/** The stages of one shell tool call that are timed and reported. */
export type WorkspaceStage = "stage" | "run" | "collect" | "save";

/** One finished stage as a callback custom event carries it. */
export interface WorkspaceSpan {
  stage: WorkspaceStage;
  tool: string;
  skill?: string;
  durationMs: number;
  /** What the stage handled: files staged, exit code, files collected, artifacts saved. */
  detail: Record<string, unknown>;
}

/**
 * Times `work` and reports it as a LangChain callback custom event named {@link WORKSPACE_SPAN_EVENT} under the tool's
 * run (so LangSmith and `streamEvents` show stage, run, collect and save of a call); reporting never fails the call.
 */
export async function withWorkspaceSpan<T>(
  config: RunnableConfig,
  span: { stage: WorkspaceStage; tool: string; skill?: string },
  work: () => Promise<T>,
  detail: (result: T) => Record<string, unknown>,
): Promise<T> {
  const started = performance.now();
  const result = await work();
  const event: WorkspaceSpan = {
    ...span,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    detail: detail(result),
  };
  try {
    await dispatchCustomEvent(WORKSPACE_SPAN_EVENT, event, config);
  } catch {
    // no callbacks to report to (a tool invoked outside any traced run)
  }
  return result;
}
