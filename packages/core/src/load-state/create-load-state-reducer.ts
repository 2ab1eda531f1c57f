import { applyLoadEvents } from "./apply-load-events.js";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { checkLoadStateOptions } from "./check-load-state-options.js";
import { emptyLoadState } from "./empty-load-state.js";
import type { LoadStateOptions, SkillLoadEvent, SkillLoadState } from "./load-state-types.js";

/**
 * A reducer for a LangGraph state channel holding a SkillLoadState. An update is either a list of events (merged;
 * order-independent within one seq) or a whole SkillLoadState, which replaces the current one (checkpoint restore).
 *
 * @param options `maxLoadedSkills`: cap on loaded skills (checked here, once; throws InvalidOptionsError)
 * @example
 * const reducer = createLoadStateReducer({ maxLoadedSkills: 8 });
 * const channel = { reducer, default: emptyLoadState }; // e.g. Annotation<SkillLoadState, SkillLoadState | SkillLoadEvent[]>(channel)
 */
export function createLoadStateReducer(
  options?: LoadStateOptions,
): (current: SkillLoadState | undefined, update: SkillLoadState | readonly SkillLoadEvent[]) => SkillLoadState {
  checkLoadStateOptions(options);
  const cap = options?.maxLoadedSkills;
  const settings: LoadStateOptions = cap === undefined ? {} : { maxLoadedSkills: cap };
  return (current, update) => {
    if (!Array.isArray(update)) return checkReplacement(update as SkillLoadState);
    return applyLoadEvents(current ?? emptyLoadState(), update, settings).state;
  };
}

function checkReplacement(update: SkillLoadState): SkillLoadState {
  if (
    typeof update !== "object" ||
    update === null ||
    !Number.isInteger(update.seq) ||
    typeof update.loaded !== "object" ||
    update.loaded === null
  ) {
    throw new SkillgraphError({
      code: "invalid-load-state",
      message:
        "Skill load state update must be an array of events or a whole SkillLoadState ({ seq: integer, loaded: object })",
    });
  }
  return update;
}
