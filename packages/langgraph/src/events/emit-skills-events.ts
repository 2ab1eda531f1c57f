import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import type { RunnableConfig } from "@langchain/core/runnables";
import { SKILLS_EVENT_NAME, type SkillsEvent } from "./skills-event.js";

/** Sends events to the LangGraph custom stream (`writer`) and as callback custom events; never throws. */
export async function emitSkillsEvents(
  events: readonly SkillsEvent[],
  target: { writer?: ((chunk: unknown) => void) | undefined; config?: RunnableConfig | undefined },
): Promise<void> {
  for (const event of events) {
    try {
      target.writer?.({ skillgraph: event });
    } catch {
      // A closed stream must not break the run.
    }
    try {
      await dispatchCustomEvent(SKILLS_EVENT_NAME, event, target.config);
    } catch {
      // No callback context (called outside a run): the stream writer is enough.
    }
  }
}
