/** Name under which skill events are dispatched as callback custom events (visible in traces). */
export const SKILLS_EVENT_NAME = "skillgraph";

/** What happened to a skill or a tool call; emitted on the custom stream (`streamMode: "custom"`) and as a callback custom event. */
export type SkillsEvent =
  | { type: "skill-loaded"; agentId: string; skill: string; mode: string; hash: string }
  | { type: "skill-evicted"; agentId: string; skill: string; reason: "cap" }
  | { type: "skill-unloaded"; agentId: string; skill: string; reason: "removed" | "turn-ended" | "once-consumed" }
  | { type: "skill-drift"; agentId: string; skill: string; kind: "changed" | "removed"; action: "reload" | "keep" }
  | { type: "skill-disabled"; agentId: string; skill: string }
  | { type: "skill-file-read"; agentId: string; skill: string; path: string }
  | { type: "tools-unlocked"; agentId: string; skill: string; tools: string[] }
  | { type: "tool-blocked"; agentId: string; tool: string; reason: string };

/** Marker every emitted event carries so consumers can tell skill events apart in a mixed custom stream. */
export interface TaggedSkillsEvent {
  skillgraph: SkillsEvent;
}
