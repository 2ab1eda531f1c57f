import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { reduceSkillsState, SKILLS_STATE_KEY, type SkillsStateUpdate, type SkillsStateValue } from "./skills-state.js";

const record = z.record(z.string(), z.any());

/**
 * The skills channel's parts, made anew for each schema that declares the channel: its value (an object per agent id,
 * `{}` at first), a write to it, and the reducer that merges a write in.
 */
export function skillsChannelParts() {
  return {
    value: record.default(() => ({})) as unknown as z.ZodType<SkillsStateValue>,
    update: record.optional() as unknown as z.ZodType<SkillsStateUpdate>,
    reducer: reduceSkillsState as (current: SkillsStateValue, update: SkillsStateUpdate) => SkillsStateValue,
  };
}

const parts = skillsChannelParts();

/** The skills channel as a LangGraph StateSchema (what `createAgent` middleware accepts as `stateSchema`). */
export const SkillsStateSchema = new StateSchema({
  [SKILLS_STATE_KEY]: new ReducedValue(parts.value, { inputSchema: parts.update, reducer: parts.reducer }),
});
