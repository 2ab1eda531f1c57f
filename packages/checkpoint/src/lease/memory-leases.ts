import type { SessionHolder } from "../errors/session-busy-error.js";
import type { LeaseStore } from "./lease-rows.js";

/** In-process leases for a MemorySaver (one process is the only possible writer; this still orders its tasks). */
export function memoryLeases(): LeaseStore {
  const rows = new Map<string, SessionHolder>();
  return {
    async tryAcquire(threadId, me, ttlMs) {
      const now = Date.now();
      const row = rows.get(threadId);
      if (row && row.owner !== me.owner && row.expiresAt > now) return { holder: row, acquired: false };
      const ours = row?.owner === me.owner;
      const holder: SessionHolder = {
        owner: me.owner,
        pid: me.pid,
        host: me.host,
        since: ours && row ? row.since : now,
        expiresAt: now + ttlMs,
        token: !row ? 1 : ours ? row.token : row.token + 1,
      };
      rows.set(threadId, holder);
      return { holder, acquired: true, tookOver: row !== undefined && !ours && row.expiresAt > 0 };
    },
    async renew(threadId, owner, ttlMs) {
      const row = rows.get(threadId);
      if (!row || row.owner !== owner) return false;
      row.expiresAt = Date.now() + ttlMs;
      return true;
    },
    async release(threadId, owner) {
      const row = rows.get(threadId);
      if (row?.owner === owner) row.expiresAt = 0;
    },
  };
}
