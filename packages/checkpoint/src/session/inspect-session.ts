import { messagesDeltaReducer } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  type AgentSkillsState,
  detectLoadedSkillDrift,
  type LoadedSkillDrift,
  type LoadedSkillEntry,
  type SkillCatalog,
  type SkillLoadState,
  SKILLS_STATE_KEY,
} from "../internal/core.js";
import { readChannelValue } from "./read-channel-value.js";

/** Options of `inspectSession`. */
export interface InspectSessionOptions {
  /**
   * State channel holding the skills state: the runtime's per-agent map (`SkillsStateValue` under `SKILLS_STATE_KEY`,
   * both from @skillgraph/core), or a plain SkillLoadState (a hand-built graph's own channel).
   * @default `SKILLS_STATE_KEY` ("skillgraph") when the checkpoint has it, else "skills"
   */
  skillsChannel?: string;
  /** State channel holding the conversation. @default "messages" */
  messagesChannel?: string;
}

/** One message of a session, flattened for display. */
export interface SessionMessage {
  /** `human` | `ai` | `tool` | `system` | … */
  type: string;
  content: string;
  id?: string;
  /** Names of the tools an AI message called. */
  toolCalls?: string[];
  /** The call a tool message answers. */
  toolCallId?: string;
}

/** A loaded skill of a session, with the agent scope it belongs to ("" for a plain SkillLoadState channel). */
export interface SessionLoadedSkill extends LoadedSkillEntry {
  agentId: string;
}

/** A drifted skill of a session, with its agent scope. */
export interface SessionSkillDrift extends LoadedSkillDrift {
  agentId: string;
}

/** What a stored session holds at its newest checkpoint. */
export interface SessionInspection {
  threadId: string;
  /** False when the thread has no checkpoint (every other field is empty then). */
  exists: boolean;
  checkpointId: string | undefined;
  /** The `step` of the newest checkpoint's metadata. */
  lastStep: number | undefined;
  /** Time of the newest checkpoint (ms since epoch). */
  updatedAt: number | undefined;
  messages: SessionMessage[];
  loadedSkills: SessionLoadedSkill[];
  /** Loaded skills changed or removed on disk since they were loaded (empty without `skills`). */
  drift: SessionSkillDrift[];
  /** Values passed to `interrupt()` that wait for a `Command({ resume })`. */
  pendingInterrupts: unknown[];
  /** Writes stored under the newest checkpoint: tasks of an interrupted step that already finished. */
  pendingWrites: number;
}

const isLoadState = (value: unknown): value is SkillLoadState =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as SkillLoadState).seq === "number" &&
  typeof (value as SkillLoadState).loaded === "object";

function loadStatesOf(value: unknown): Array<[string, SkillLoadState]> {
  if (isLoadState(value)) return [["", value]];
  if (typeof value !== "object" || value === null) return [];
  const scopes: Array<[string, SkillLoadState]> = [];
  for (const [agentId, entry] of Object.entries(value)) {
    const load = (entry as Partial<AgentSkillsState> | undefined)?.load;
    if (isLoadState(load)) scopes.push([agentId, load]);
  }
  return scopes;
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : ""))
      .join("");
  return content === undefined ? "" : JSON.stringify(content);
}

function summarize(message: unknown): SessionMessage {
  const m = message as {
    getType?: () => string;
    _getType?: () => string;
    type?: string;
    role?: string;
    content?: unknown;
    id?: string;
    tool_calls?: Array<{ name: string }>;
    tool_call_id?: string;
  };
  const type = m.getType?.() ?? m._getType?.() ?? m.type ?? m.role ?? "unknown";
  const summary: SessionMessage = { type, content: text(m.content) };
  if (m.id) summary.id = m.id;
  if (m.tool_calls && m.tool_calls.length > 0) summary.toolCalls = m.tool_calls.map((call) => call.name);
  if (m.tool_call_id) summary.toolCallId = m.tool_call_id;
  return summary;
}

/**
 * Reads a stored session without running its graph: messages (rebuilt from a delta channel when needed), loaded skills,
 * drift against the skills on disk now, pending interrupts. For the CLI and tests: it reports drift, it does not settle it
 * (the runtime does, on the thread's next model call, under its `onDrift` policy).
 * @param checkpointer The saver holding the session.
 * @param threadId The session's thread id.
 * @param skills The skills as they are now; omit to skip drift detection.
 * @example
 * const session = await inspectSession(checkpointer, "s1", registry);
 * for (const d of session.drift) console.log(`${d.agentId}/${d.name}: ${d.kind}`);
 */
export async function inspectSession(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  skills?: Pick<SkillCatalog, "get">,
  options: InspectSessionOptions = {},
): Promise<SessionInspection> {
  const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  if (!tuple) {
    return {
      threadId,
      exists: false,
      checkpointId: undefined,
      lastStep: undefined,
      updatedAt: undefined,
      messages: [],
      loadedSkills: [],
      drift: [],
      pendingInterrupts: [],
      pendingWrites: 0,
    };
  }
  const values = tuple.checkpoint.channel_values ?? {};
  const skillsChannel =
    options.skillsChannel ??
    [SKILLS_STATE_KEY, "skills"].find(
      (name) => name in values || tuple.checkpoint.channel_versions?.[name] !== undefined,
    );
  const skillsValue =
    skillsChannel === undefined ? undefined : await readChannelValue<unknown>(checkpointer, tuple, skillsChannel);
  const messages =
    (await readChannelValue(checkpointer, tuple, options.messagesChannel ?? "messages", {
      reducer: messagesDeltaReducer as (state: unknown[], writes: unknown[]) => unknown[],
      initial: () => [],
    })) ?? [];

  const loadedSkills: SessionLoadedSkill[] = [];
  const drift: SessionSkillDrift[] = [];
  for (const [agentId, state] of loadStatesOf(skillsValue)) {
    for (const entry of Object.values(state.loaded).sort((a, b) => a.loadedSeq - b.loadedSeq))
      loadedSkills.push({ ...entry, agentId });
    if (skills)
      for (const found of detectLoadedSkillDrift(state, (name) => skills.get(name))) drift.push({ ...found, agentId });
  }
  const writes = tuple.pendingWrites ?? [];
  const answered = new Set(writes.filter(([, channel]) => channel === "__resume__").map(([taskId]) => taskId));
  const pendingInterrupts = writes
    .filter(([taskId, channel]) => channel === "__interrupt__" && !answered.has(taskId))
    .flatMap(([, , value]) => (Array.isArray(value) ? value : [value]));
  const ts = Date.parse(tuple.checkpoint.ts);
  return {
    threadId,
    exists: true,
    checkpointId: tuple.checkpoint.id,
    lastStep: typeof tuple.metadata?.step === "number" ? tuple.metadata.step : undefined,
    updatedAt: Number.isNaN(ts) ? undefined : ts,
    messages: (Array.isArray(messages) ? messages : []).map(summarize),
    loadedSkills,
    drift,
    pendingInterrupts,
    pendingWrites: writes.length,
  };
}
