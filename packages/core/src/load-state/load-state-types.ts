/**
 * How long a loaded skill stays loaded: its body is shown in the next model request only and its tools stay until the
 * end of the agent's turn (`once`), the end of the agent's turn (`turn`), or until unloaded/reset (`session`).
 */
export type LoadMode = "turn" | "once" | "session";

/** One loaded skill. Holds no body: the body is read again from the registry (and checked against `hash`). */
export interface LoadedSkillEntry {
  name: string;
  mode: LoadMode;
  /** Seq of the load that created this entry (reloads keep it): the order bodies are materialised in. */
  loadedSeq: number;
  /** Seq of the latest load, touch or doc read: eviction removes the smallest `(lastUsedSeq, name)` first. */
  lastUsedSeq: number;
  /** sha256 of the SKILL.md that was loaded (see SkillMetadata.hash). */
  hash: string;
  /** Resource files read, relative to the skill folder; sorted (code-unit order), unique. */
  docs: string[];
  /** A `once` skill whose body was shown in a model request: not shown again; its tools stay until the turn ends. */
  consumed?: boolean;
}

/**
 * The events of the latest step (`seq`) and the loaded set before them. Kept so that updates from parallel tool
 * calls of one step merge to the same state in any order: each one re-folds `base` with the whole set of events.
 * Readers should ignore it; it is replaced at every new seq.
 */
export interface SkillLoadJournal {
  /** `loaded` as it was before any event of seq `state.seq`. */
  base: Record<string, LoadedSkillEntry>;
  /** Events of seq `state.seq`, sorted canonically and unique. */
  events: SkillLoadEvent[];
}

/** Loaded skills of one agent scope; a LangGraph state channel. Names, modes, seqs, hashes and doc paths only. */
export interface SkillLoadState {
  /** Highest seq applied so far. A tool reads it and emits its events with `seq = state.seq + 1` (see nextSeq). */
  seq: number;
  /** Loaded skills by name. */
  loaded: Record<string, LoadedSkillEntry>;
  /** Bookkeeping for order-independent merging of one step's parallel updates (absent in a fresh state). */
  journal?: SkillLoadJournal;
}

/** A change to the load state. Every event of one tool call carries the same `seq` (state.seq + 1). */
export type SkillLoadEvent =
  | { type: "load"; name: string; mode: LoadMode; hash: string; seq: number }
  | { type: "touch"; name: string; seq: number }
  | { type: "doc"; name: string; path: string; seq: number }
  /** Drops `path` (every path when absent) from a loaded skill's docs; applied before the step's loads and doc reads. */
  | { type: "undoc"; name: string; path?: string; seq: number }
  | { type: "unload"; name: string; seq: number }
  /** After a model call: marks `once` skills loaded before this call consumed (body hidden, tools kept until end-turn). */
  | { type: "model-call"; seq: number }
  /** The agent finished its turn: drops `turn` and `once` skills. */
  | { type: "end-turn"; seq: number }
  /** Drop everything. */
  | { type: "reset"; seq: number };

/** Options of applyLoadEvents and createLoadStateReducer. */
export interface LoadStateOptions {
  /** Most skills loaded at once; beyond it the least recently used are evicted (tie-break by name). @default unlimited */
  maxLoadedSkills?: number;
}

/** One loaded skill whose SKILL.md changed or disappeared since it was loaded. */
export interface LoadedSkillDrift {
  name: string;
  kind: "changed" | "removed";
  /** The hash recorded when the skill was loaded. */
  recordedHash: string;
  /** The hash now (absent when removed). */
  currentHash?: string;
}
