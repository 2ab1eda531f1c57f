import { SkillgraphError } from "../errors/skillgraph-error.js";
import type { SkillLoadEvent } from "./load-state-types.js";

const modes = new Set(["turn", "once", "session"]);
const types = new Set(["load", "touch", "doc", "undoc", "unload", "model-call", "end-turn", "reset"]);

/** Throws a SkillgraphError (`invalid-load-event`) naming the field when `event` is not a well-formed SkillLoadEvent. */
export function checkLoadEvent(event: SkillLoadEvent, index: number): void {
  const fail = (field: string, detail: string): never => {
    throw new SkillgraphError({
      code: "invalid-load-event",
      message: `Invalid skill load event #${index}: '${field}' ${detail}`,
    });
  };
  if (typeof event !== "object" || event === null) fail("event", "must be an object");
  if (!types.has(event.type)) fail("type", `is not a known event type: ${JSON.stringify(event.type)}`);
  if (!Number.isInteger(event.seq) || event.seq < 0) fail("seq", `must be an integer >= 0, got ${String(event.seq)}`);
  if ("name" in event && (typeof event.name !== "string" || event.name === ""))
    fail("name", "must be a non-empty string");
  if (event.type === "load") {
    if (!modes.has(event.mode)) fail("mode", `must be "turn", "once" or "session", got ${JSON.stringify(event.mode)}`);
    if (typeof event.hash !== "string") fail("hash", "must be a string");
  }
  if (event.type === "doc" && (typeof event.path !== "string" || event.path === ""))
    fail("path", "must be a non-empty string");
}
