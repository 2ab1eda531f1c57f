// @skillgraph/checkpoint: checkpointed sessions on LangGraph's official savers — create and close a checkpointer,
// pruning, listing and inspecting sessions, one writer per session (lease), the messages delta channel.
export { createCheckpointer, closeCheckpointer } from "./create-checkpointer/create-checkpointer.js";
export {
  createCheckpointerOptionsSchema,
  type CreateCheckpointerOptions,
} from "./create-checkpointer/create-checkpointer-options.js";
export { redactUrl } from "./create-checkpointer/redact-url.js";
export { CheckpointerError } from "./errors/checkpointer-error.js";
export { guardPostgresPool } from "./database/guard-postgres-pool.js";
export { runWithPriority } from "./database/pool-priority.js";
export type { CheckpointerErrorReason } from "./errors/checkpointer-error.js";
export { withPruning, PruningCheckpointSaver } from "./pruning/with-pruning.js";
export { pruningOptionsSchema, type PruningOptions, type ResolvedPruningOptions } from "./pruning/pruning-options.js";
export { pruneCheckpoints } from "./pruning/prune-checkpoints.js";
export type { PruneReport } from "./pruning/prune-checkpoints.js";
export type { KeepReason, PruningPolicy } from "./pruning/plan-pruning.js";
export type { StorageStats, ThreadSummary } from "./store/checkpoint-store.js";
export { listSessions, checkpointStats } from "./session/list-sessions.js";
export { inspectSession } from "./session/inspect-session.js";
export type {
  InspectSessionOptions,
  SessionInspection,
  SessionLoadedSkill,
  SessionMessage,
  SessionSkillDrift,
} from "./session/inspect-session.js";
export { acquireSessionLease } from "./lease/session-lease.js";
export type { SessionLease } from "./lease/session-lease.js";
export { sessionLeaseOptionsSchema, type SessionLeaseOptions } from "./lease/session-lease-options.js";
export { SessionBusyError } from "./errors/session-busy-error.js";
export type { SessionHolder } from "./errors/session-busy-error.js";
export { SessionLeaseLostError } from "./errors/session-lease-lost-error.js";
export { messagesDeltaChannel } from "./state/messages-delta-channel.js";
export { runTurnOnce, type TurnOnceResult } from "./turn/run-turn-once.js";
export { turnStatus, type TurnGraph, type TurnStatus } from "./turn/turn-status.js";
export { createTurnScheduler, type TurnPriority, type TurnScheduler } from "./turn/turn-scheduler.js";
export { turnSchedulerOptionsSchema, type TurnSchedulerOptions } from "./turn/turn-scheduler-options.js";
export { TurnsBusyError } from "./errors/turns-busy-error.js";
export type { MessagesDeltaChannel, MessagesDeltaChannelOptions } from "./state/messages-delta-channel.js";
