import type { RunnableConfig } from "@langchain/core/runnables";
import { getCurrentTaskInput } from "@langchain/langgraph";
import { NO_THREAD } from "../workspace/thread-workspaces.js";
import type { RuntimeView } from "./shell-runtime.js";
import { SKILLS_STATE_KEY, type SkillsStateValue } from "../internal/core.js";

/** The thread id of a tool call (`configurable.thread_id`), if any. */
export function threadIdOf(config: RunnableConfig | undefined): string | undefined {
  const id = config?.configurable?.thread_id;
  return typeof id === "string" && id !== "" ? id : typeof id === "number" ? String(id) : undefined;
}

/**
 * The skills loaded for an agent as the graph state records them: the skills state (`skillgraph[agentId].load.loaded`,
 * the key the skills interceptor and middleware write), else a `loadedSkills` array; undefined when neither is there.
 */
export function loadedNamesInState(state: unknown, agentId: string): string[] | undefined {
  if (!state || typeof state !== "object") return undefined;
  const record = state as Record<string, unknown>;
  const skillgraph = record[SKILLS_STATE_KEY] as Partial<SkillsStateValue> | undefined;
  const loaded = skillgraph?.[agentId]?.load?.loaded;
  if (loaded && typeof loaded === "object") return Object.keys(loaded);
  const list = record.loadedSkills;
  if (Array.isArray(list))
    return list
      .map((item) => (typeof item === "string" ? item : (item as { name?: string })?.name))
      .filter((name): name is string => typeof name === "string");
  return undefined;
}

/**
 * The skills loaded for this call as the tool can see them: the `loadedSkills` option, else the graph state (via
 * getCurrentTaskInput), else what `authorize` last recorded for the thread; undefined when nothing is visible.
 */
export function loadedSkillNames(
  runtime: RuntimeView<"agentId" | "loadedSkills", never, "seenLoaded">,
  config: RunnableConfig,
): readonly string[] | undefined {
  let state: unknown;
  try {
    state = getCurrentTaskInput(config);
  } catch {
    state = undefined;
  }
  if (runtime.config.loadedSkills) {
    const names = runtime.config.loadedSkills({ state, config });
    if (names !== undefined) return names;
  }
  const fromGraph = loadedNamesInState(state, runtime.config.agentId);
  if (fromGraph !== undefined) return fromGraph;
  return runtime.threads.seenLoaded.get(threadIdOf(config) ?? NO_THREAD);
}
