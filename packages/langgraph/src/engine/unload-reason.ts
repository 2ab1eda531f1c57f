import type { LoadMode } from "../internal/core.js";

/** What the engine knows when it explains to the model why a skill it read is not loaded any more. */
export interface UnloadContext {
  /** The skill is still in the registry (else it was removed). */
  inCatalog: boolean;
  /** The skill's load mode (its `loadModes` entry, else `loadMode`). */
  mode: LoadMode;
  /** How many skills of this agent are loaded now. */
  loadedCount: number;
  /** The cap on loaded skills. */
  maxLoadedSkills: number;
}

/**
 * Why a skill whose read_skill result is in the history is no longer loaded, in words for the model: removed from the
 * registry, evicted by the `maxLoadedSkills` cap (the loaded set is full), or ended by its load mode.
 */
export function unloadReason(context: UnloadContext): string {
  if (!context.inCatalog) return "it was removed from the skill registry";
  if (context.loadedCount >= context.maxLoadedSkills)
    return `it is no longer loaded: evicted to keep at most ${context.maxLoadedSkills} skill${context.maxLoadedSkills === 1 ? "" : "s"} loaded (maxLoadedSkills; the least recently used skill goes first)`;
  if (context.mode === "turn")
    return "it is no longer loaded: it was loaded for one turn (load mode 'turn') and that turn ended";
  if (context.mode === "once") return "it is no longer loaded: it was loaded for one model call (load mode 'once')";
  return "it is no longer loaded: it was unloaded";
}
