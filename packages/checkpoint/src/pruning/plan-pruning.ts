import type { CheckpointKey, CheckpointRow } from "../store/checkpoint-store.js";

/** Which checkpoints a prune may drop: those beyond the newest `keepLast` of their namespace, or older than `maxAgeMs`. */
export interface PruningPolicy {
  /** Keep this many newest checkpoints per thread and namespace. */
  keepLast?: number;
  /** Drop checkpoints older than this many milliseconds. */
  maxAgeMs?: number;
}

/** Why a checkpoint the policy would drop is kept. */
export type KeepReason = "policy" | "latest" | "pending-writes" | "delta-ancestor" | "subgraph-parent" | "sends-parent";

/** The outcome of planning: what to delete and why the rest stays. */
export interface PruningPlan {
  remove: CheckpointKey[];
  /** Kept checkpoints by the first reason found. */
  kept: Record<KeepReason, number>;
}

const keyOf = (ns: string, id: string) => `${ns}\u0000${id}`;

/**
 * Decides which checkpoints of one thread can go without breaking a resume: the newest checkpoint of every namespace,
 * checkpoints holding pending writes that no child checkpoint consumed yet (an interrupted step), the parent-graph checkpoints
 * a kept subgraph checkpoint points at, and every ancestor a kept checkpoint's delta channels replay from (up to the nearest
 * ancestor storing a value or DeltaSnapshot for each), and the parent of a kept pre-v4 checkpoint (its pending sends are
 * rebuilt from that parent's writes) always stay, whatever the policy says.
 */
export function planPruning(rows: readonly CheckpointRow[], policy: PruningPolicy, now: number): PruningPlan {
  const byKey = new Map<string, CheckpointRow>();
  const byNs = new Map<string, CheckpointRow[]>();
  const hasChild = new Set<string>();
  for (const row of rows) {
    byKey.set(keyOf(row.ns, row.id), row);
    const list = byNs.get(row.ns) ?? [];
    list.push(row);
    byNs.set(row.ns, list);
    if (row.parentId !== undefined) hasChild.add(keyOf(row.ns, row.parentId));
  }
  const kept = new Map<string, KeepReason>();
  const queue: CheckpointRow[] = [];
  const keep = (row: CheckpointRow, reason: KeepReason) => {
    const key = keyOf(row.ns, row.id);
    if (kept.has(key)) return;
    kept.set(key, reason);
    queue.push(row);
  };

  for (const list of byNs.values()) {
    list.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    list.forEach((row, index) => {
      const beyondCount = policy.keepLast !== undefined && index >= policy.keepLast;
      const tooOld = policy.maxAgeMs !== undefined && now - row.ts > policy.maxAgeMs;
      if (index === 0) keep(row, beyondCount || tooOld ? "latest" : "policy");
      else if (!beyondCount && !tooOld) keep(row, "policy");
      else if (row.writes > 0 && !hasChild.has(keyOf(row.ns, row.id))) keep(row, "pending-writes");
    });
  }

  while (queue.length > 0) {
    const row = queue.pop() as CheckpointRow;
    for (const [ns, id] of Object.entries(row.parents)) {
      const parent = byKey.get(keyOf(ns, id));
      if (parent) keep(parent, "subgraph-parent");
    }
    // Savers migrate a `v < 4` checkpoint on read: its pending sends are the TASKS writes stored under its parent.
    if (row.version < 4 && row.parentId !== undefined) {
      const parent = byKey.get(keyOf(row.ns, row.parentId));
      if (parent) keep(parent, "sends-parent");
    }
    // Mirrors LangGraph's ancestor walk (channelsFromCheckpoint -> getDeltaChannelHistory): a versioned delta channel with
    // nothing stored here is rebuilt from the writes of every ancestor up to the nearest one storing a value for it.
    const stored = new Set(row.valueChannels);
    const versioned = new Set(row.versionedChannels);
    const needed = new Set(row.deltaChannels.filter((channel) => versioned.has(channel) && !stored.has(channel)));
    let cursor = row.parentId === undefined ? undefined : byKey.get(keyOf(row.ns, row.parentId));
    while (cursor && needed.size > 0) {
      keep(cursor, "delta-ancestor");
      for (const channel of cursor.valueChannels) needed.delete(channel);
      cursor = cursor.parentId === undefined ? undefined : byKey.get(keyOf(cursor.ns, cursor.parentId));
    }
  }

  const counts: Record<KeepReason, number> = {
    policy: 0,
    latest: 0,
    "pending-writes": 0,
    "delta-ancestor": 0,
    "subgraph-parent": 0,
    "sends-parent": 0,
  };
  for (const reason of kept.values()) counts[reason] += 1;
  const remove = rows.filter((row) => !kept.has(keyOf(row.ns, row.id))).map((row) => ({ ns: row.ns, id: row.id }));
  return { remove, kept: counts };
}
