import { withLangGraph } from "@langchain/langgraph/zod";
import { OK, z as z3, type ParseInput, type ParseReturnType } from "zod/v3";
import { SKILLS_STATE_KEY } from "../state/skills-state.js";
import { skillsChannelParts, type SkillsStateSchema } from "../state/skills-state-schema.js";

/**
 * The state a model call's middleware sees of the skills channel: the channel's value as the state holds it (no copy, no
 * check; the graph checked what was written to it), or nothing when the state has none.
 */
function skillsChannelOf(state: unknown): Record<string, unknown> {
  const value = (state as Record<string, unknown> | null | undefined)?.[SKILLS_STATE_KEY];
  return value === undefined ? {} : { [SKILLS_STATE_KEY]: value };
}

/**
 * A zod v3 object whose parse picks the skills channel out of the agent state, and whose `partial()` and `extend()`
 * (all `createAgent` derives from a middleware's state schema) are itself: its one field is optional already.
 */
class SkillsChannelSelector extends z3.ZodObject<z3.ZodRawShape> {
  override _parse(input: ParseInput): ParseReturnType<Record<string, unknown>> {
    return OK(skillsChannelOf(input.data));
  }

  override partial(): never {
    return this as never;
  }

  override extend(): never {
    return this as never;
  }
}

/**
 * The skills channel as the `stateSchema` of the `createAgent` middleware, parsed without compiling anything per call.
 *
 * Before every model call `createAgent` (langchain 1.5) parses each middleware's state with a partial copy of its state
 * schema. For a LangGraph `StateSchema` or a zod v4 object that copy is a new zod v4 object, and zod v4 compiles a parser
 * (`new Function`) the first time an object schema parses: once per model call (declared as below, zod's own time fell
 * by 0.14 ms per model call in a CPU profile of a 200-call loop with a MemorySaver).
 * A zod v3 object is parsed without compiling. So the middleware declares its channel as a zod v3 object whose one field
 * is the channel's zod v4 schema carrying its reducer (how `createAgent` reads a reducer off a field), the same channel
 * {@link SkillsStateSchema} declares; its parse reads the field's value as `createAgent`'s tool calls read a
 * `StateSchema`'s fields.
 */
export function skillsMiddlewareStateSchema(): typeof SkillsStateSchema {
  const parts = skillsChannelParts();
  const field = withLangGraph(parts.value as never, { reducer: { fn: parts.reducer, schema: parts.update as never } });
  const shape = { [SKILLS_STATE_KEY]: field } as unknown as z3.ZodRawShape;
  return new SkillsChannelSelector({
    ...z3.object({})._def,
    shape: () => shape,
  }) as unknown as typeof SkillsStateSchema;
}
