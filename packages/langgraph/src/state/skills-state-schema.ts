import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { reduceSkillsState, SKILLS_STATE_KEY, type SkillsStateUpdate, type SkillsStateValue } from "./skills-state.js";

const record = z.record(z.string(), z.any());

/** The skills channel as a LangGraph StateSchema (what `createAgent` middleware accepts as `stateSchema`). */
export const SkillsStateSchema = new StateSchema({
  [SKILLS_STATE_KEY]: new ReducedValue(record.default(() => ({})) as unknown as z.ZodType<SkillsStateValue>, {
    inputSchema: record.optional() as unknown as z.ZodType<SkillsStateUpdate>,
    reducer: reduceSkillsState as (current: SkillsStateValue, update: SkillsStateUpdate) => SkillsStateValue,
  }),
});
