import { randomBytes } from "node:crypto";
import { NO_THREAD } from "../workspace/thread-workspaces.js";
import type { InteractiveSession } from "./interactive-session.js";

/**
 * Live interactive sessions by thread id, in memory only (never in checkpoints: a resumed thread on another process
 * simply has no sessions).
 */
export class SessionStore {
  private readonly byThread = new Map<string, Map<string, InteractiveSession>>();

  /** A fresh, unguessable session id. */
  newId(): string {
    return `session-${randomBytes(6).toString("hex")}`;
  }

  /** Number of sessions a thread has open. */
  count(threadId: string | undefined): number {
    return this.byThread.get(threadId ?? NO_THREAD)?.size ?? 0;
  }

  /** Registers a session under its thread (removed automatically when it exits and was polled, or on dispose). */
  add(threadId: string | undefined, session: InteractiveSession): void {
    const key = threadId ?? NO_THREAD;
    let sessions = this.byThread.get(key);
    if (!sessions) {
      sessions = new Map();
      this.byThread.set(key, sessions);
    }
    sessions.set(session.id, session);
  }

  /** The thread's session with this id (a session of another thread is never returned). */
  get(threadId: string | undefined, sessionId: string): InteractiveSession | undefined {
    return this.byThread.get(threadId ?? NO_THREAD)?.get(sessionId);
  }

  /** Forgets a session (after it exited and its last output was read). */
  remove(threadId: string | undefined, sessionId: string): void {
    const key = threadId ?? NO_THREAD;
    const sessions = this.byThread.get(key);
    sessions?.delete(sessionId);
    if (sessions && sessions.size === 0) this.byThread.delete(key);
  }

  /** Kills and forgets the sessions of one thread, or of every thread when no id is given. */
  async dispose(threadId?: string): Promise<void> {
    const keys = threadId === undefined ? [...this.byThread.keys()] : [threadId];
    const kills: Array<Promise<void>> = [];
    for (const key of keys) {
      for (const session of this.byThread.get(key)?.values() ?? []) kills.push(session.kill());
      this.byThread.delete(key);
    }
    await Promise.all(kills);
  }
}
