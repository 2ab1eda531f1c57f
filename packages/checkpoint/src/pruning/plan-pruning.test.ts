import { describe, expect, it } from "vitest";
import type { CheckpointRow } from "../store/checkpoint-store.js";
import { planPruning } from "./plan-pruning.js";

const now = Date.parse("2026-01-10T00:00:00Z");
const day = 86_400_000;

/** A linear chain of n root checkpoints, ids c00..c(n-1), one per hour going back from `now`. */
function chain(n: number, shape: (index: number) => Partial<CheckpointRow> = () => ({})): CheckpointRow[] {
  return Array.from({ length: n }, (_, index) => ({
    threadId: "t",
    ns: "",
    id: `c${String(index).padStart(2, "0")}`,
    parentId: index === 0 ? undefined : `c${String(index - 1).padStart(2, "0")}`,
    ts: now - (n - 1 - index) * 3_600_000,
    version: 4,
    versionedChannels: ["messages", "skills"],
    valueChannels: ["messages", "skills"],
    deltaChannels: [],
    parents: {},
    writes: 1,
    ...shape(index),
  }));
}

const removedIds = (rows: CheckpointRow[], policy: Parameters<typeof planPruning>[1]) =>
  planPruning(rows, policy, now).remove.map((key) => key.id);

describe("planPruning", () => {
  it("keeps only the newest keepLast checkpoints of a thread when nothing else needs the older ones", () => {
    const removed = removedIds(chain(10), { keepLast: 3 });
    expect(removed.sort()).toEqual(["c00", "c01", "c02", "c03", "c04", "c05", "c06"]);
  });

  it("drops checkpoints older than maxAgeMs but never the newest one", () => {
    const rows = chain(5).map((row) => ({ ...row, ts: row.ts - 10 * day }));
    const plan = planPruning(rows, { maxAgeMs: day }, now);
    expect(plan.remove.map((key) => key.id).sort()).toEqual(["c00", "c01", "c02", "c03"]);
    expect(plan.kept.latest).toBe(1);
  });

  it("keeps every checkpoint a delta channel replays from, back to the nearest stored snapshot", () => {
    // messages is a delta channel: snapshot stored at c03 only; later checkpoints rebuild it from c03's value plus writes.
    const rows = chain(10, (index) => ({
      valueChannels: index === 3 ? ["messages", "skills"] : ["skills"],
      deltaChannels: index === 3 ? [] : ["messages"],
    }));
    const plan = planPruning(rows, { keepLast: 2 }, now);
    expect(plan.remove.map((key) => key.id).sort()).toEqual(["c00", "c01", "c02"]);
    expect(plan.kept["delta-ancestor"]).toBe(5);
  });

  it("does not walk for a delta channel the checkpoint has no version of (never written on its branch)", () => {
    const rows = chain(6, () => ({
      valueChannels: ["skills"],
      versionedChannels: ["skills"],
      deltaChannels: ["messages"],
    }));
    expect(removedIds(rows, { keepLast: 1 }).length).toBe(5);
  });

  it("keeps the newest checkpoint of every subgraph namespace and the parent checkpoint it points at", () => {
    const root = chain(6);
    const sub: CheckpointRow[] = [
      { ...root[0]!, ns: "tool:abc", id: "s1", parentId: undefined, parents: { "": "c02" } },
      { ...root[0]!, ns: "tool:abc", id: "s2", parentId: "s1", parents: { "": "c02" } },
    ];
    const removed = removedIds([...root, ...sub], { keepLast: 1 });
    expect(removed).not.toContain("s2");
    expect(removed).toContain("s1");
    expect(removed).not.toContain("c02");
    expect(removed).toContain("c01");
  });

  it("keeps an older checkpoint whose pending writes no child consumed (an interrupted branch)", () => {
    const rows = chain(6);
    const fork: CheckpointRow = { ...rows[2]!, id: "c02b", parentId: "c01", writes: 2 };
    const removed = removedIds([...rows, fork], { keepLast: 1 });
    expect(removed).not.toContain("c02b");
    expect(removed).toContain("c02");
  });

  it("keeps the parent of a kept pre-v4 checkpoint, whose pending sends the saver rebuilds from that parent's writes", () => {
    const rows = chain(4, (index) => ({ version: index === 3 ? 1 : 4 }));
    const plan = planPruning(rows, { keepLast: 1 }, now);
    expect(plan.remove.map((key) => key.id).sort()).toEqual(["c00", "c01"]);
    expect(plan.kept["sends-parent"]).toBe(1);
    // A v4 checkpoint carries its sends itself: its parent goes.
    expect(removedIds(chain(4), { keepLast: 1 }).sort()).toEqual(["c00", "c01", "c02"]);
  });

  it("removes nothing when the policy keeps everything", () => {
    expect(removedIds(chain(4), { keepLast: 10, maxAgeMs: 365 * day })).toEqual([]);
  });
});
