// Property tests of the skills channel under parallel Send branches: random histories, then two or three branches whose
// writes are applied through the real reducer in every order LangGraph could apply them (and with a write replayed),
// compared with a model in which every change is kept.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentSkillsState, SkillsStateValue } from "../internal/core.js";
import {
  actionArb,
  canonical,
  emptyModelAgent,
  modelStep,
  permutations,
  project,
  sortModel,
  writeAction,
  type Action,
  type ModelAgent,
} from "../__fixtures__/skills-state-model.js";
import { mergeAgentSkillsState } from "./merge-agent-skills-state.js";
import {
  emptyAgentSkillsState,
  reduceSkillsState,
  type AgentSkillsUpdate,
  type SkillsStateUpdate,
} from "./skills-state.js";

const AGENTS = ["a", "b", "c", "d"] as const;

/** One agent's entry in a channel value (a fresh state when absent). */
const agentOf = (value: SkillsStateValue, agent: string) => value[agent] ?? emptyAgentSkillsState();

/**
 * A branch of the fan-out. `node`: an agent node in the parent graph (an interceptor's nodes), one action per superstep,
 * each written as an event update after reading the merged state. `subgraph`: a compiled agent added as a node, which
 * runs all its actions on its own copy of the channel and writes back the whole copy (every agent's entry) at the end.
 */
interface Branch {
  kind: "node" | "subgraph";
  agent: string;
  actions: Action[];
}

type Model = Record<string, ModelAgent>;

const branchArb = fc.record({
  kind: fc.constantFrom<Branch["kind"]>("node", "subgraph"),
  share: fc.boolean(),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 4, size: "max" }),
});

/**
 * Gives branch i agent AGENTS[i], except that a node branch asking to share takes the agent of the first node branch
 * before it (parallel nodes of one agent write events, the documented way). A subgraph's agent is its own.
 */
function assignAgents(specs: ReadonlyArray<{ kind: Branch["kind"]; share: boolean; actions: Action[] }>): Branch[] {
  const branches: Branch[] = [];
  specs.forEach((spec, index) => {
    const firstNode = branches.find((branch) => branch.kind === "node");
    const agent = spec.kind === "node" && spec.share && firstNode ? firstNode.agent : AGENTS[index]!;
    branches.push({ kind: spec.kind, agent, actions: spec.actions });
  });
  return branches;
}

/** Sequential history before the fan-out (each step one agent's action), through the reducer and the model. */
function runHistory(history: ReadonlyArray<[number, Action]>): { value: SkillsStateValue; model: Model } {
  let value = reduceSkillsState(undefined, undefined);
  const model: Model = {};
  for (const [index, action] of history) {
    const agent = AGENTS[index]!;
    const update = writeAction(agentOf(value, agent), action);
    if (!update) continue;
    value = reduceSkillsState(value, { [agent]: update });
    model[agent] = modelStep(model[agent] ?? emptyModelAgent(), [update]);
  }
  return { value, model };
}

/** The writes of superstep `step` (what each active branch returns) and the model after it. */
function superstep(value: SkillsStateValue, model: Model, branches: readonly Branch[], step: number) {
  const writes: SkillsStateUpdate[] = [];
  const tags = new Set<string>();
  const next: Model = { ...model };
  const nodeUpdates = new Map<string, AgentSkillsUpdate[]>();
  for (const branch of branches) {
    if (branch.kind === "subgraph") {
      if (step > 0) continue;
      let copy = value;
      let own = model[branch.agent];
      for (const action of branch.actions) {
        const update = writeAction(agentOf(copy, branch.agent), action);
        if (!update) continue;
        copy = reduceSkillsState(copy, { [branch.agent]: update });
        own = modelStep(own ?? emptyModelAgent(), [update]);
        if (update.disable && update.events?.length === 0) tags.add("disable raising no seq in a subgraph");
      }
      writes.push(copy);
      if (own) next[branch.agent] = own;
      continue;
    }
    const action = branch.actions[step];
    if (!action) continue;
    const update = writeAction(agentOf(value, branch.agent), action);
    if (!update) continue;
    writes.push({ [branch.agent]: update });
    nodeUpdates.set(branch.agent, [...(nodeUpdates.get(branch.agent) ?? []), update]);
  }
  for (const [agent, updates] of nodeUpdates) {
    if (updates.length > 1) tags.add("one agent's parallel node updates");
    next[agent] = modelStep(model[agent] ?? emptyModelAgent(), updates);
  }
  if (writes.length === 3) tags.add("three writes");
  if (writes.length > 1 && writes.some((write) => Object.values(write).some((entry) => "load" in entry)))
    tags.add("whole entries with other writes");
  return { writes, model: next, tags };
}

const applyAll = (value: SkillsStateValue, writes: readonly SkillsStateUpdate[]) =>
  writes.reduce<SkillsStateValue>((state, write) => reduceSkillsState(state, write), value);

describe("skills channel under parallel Send branches", () => {
  it("keeps every branch's changes (loads, unloads and evictions, disables, touches, doc reads, turn ends) in every order", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: AGENTS.length - 1 }), actionArb), { maxLength: 12, size: "max" }),
        fc.array(branchArb, { minLength: 2, maxLength: 3 }),
        fc.nat(),
        (history, specs, replayAt) => {
          const branches = assignAgents(specs);
          let { value, model } = runHistory(history);
          expect(project(value)).toEqual(sortModel(model));
          const steps = Math.max(...branches.map((branch) => (branch.kind === "node" ? branch.actions.length : 1)));
          for (let step = 0; step < steps; step++) {
            const next = superstep(value, model, branches, step);
            for (const tag of next.tags) seen.add(tag);
            const results = permutations(next.writes).map((order) => canonical(applyAll(value, order)));
            expect(new Set(results).size).toBe(1);
            // A replayed write (the same update applied again, anywhere in the superstep) changes nothing.
            if (next.writes.length > 0) {
              const replayed = [...next.writes];
              replayed.splice(replayAt % (replayed.length + 1), 0, next.writes[replayAt % next.writes.length]!);
              expect(canonical(applyAll(value, replayed))).toBe(results[0]);
            }
            value = applyAll(value, next.writes);
            model = next.model;
            expect(project(value)).toEqual(sortModel(model));
          }
        },
      ),
      { numRuns: 500 },
    );
    // The cases this is about did come up.
    expect([...seen].sort()).toEqual([
      "disable raising no seq in a subgraph",
      "one agent's parallel node updates",
      "three writes",
      "whole entries with other writes",
    ]);
  });

  it("keeps a disable of a skill that is not loaded while the other branch loads (the two-agent fan-out)", () => {
    const { value } = runHistory([
      [0, { kind: "load", name: "s1", mode: "session" }],
      [1, { kind: "load", name: "s2", mode: "session" }],
    ]);
    const { writes } = superstep(
      value,
      {},
      [
        { kind: "subgraph", agent: "a", actions: [{ kind: "disable", name: "s3" }] },
        { kind: "subgraph", agent: "b", actions: [{ kind: "load", name: "s4", mode: "turn" }] },
      ],
      0,
    );
    for (const order of permutations(writes)) {
      const merged = project(applyAll(value, order));
      expect(merged.a!.disabled).toEqual(["s3"]);
      expect(Object.keys(merged.a!.loaded)).toEqual(["s1"]);
      expect(Object.keys(merged.b!.loaded)).toEqual(["s2", "s4"]);
    }
  });
});

/** An ancestor state of one agent and three forks of it, each a few steps further (some at the same seq). */
const forksArb = fc.record({
  ancestor: fc.array(actionArb, { maxLength: 6, size: "max" }),
  forks: fc.array(fc.array(actionArb, { maxLength: 3, size: "max" }), { minLength: 3, maxLength: 3 }),
});

function forkStates(ancestor: readonly Action[], forks: readonly Action[][]) {
  const run = (start: SkillsStateValue, actions: readonly Action[]) =>
    actions.reduce((value, action) => {
      const update = writeAction(agentOf(value, "a"), action);
      return update ? reduceSkillsState(value, { a: update }) : value;
    }, start);
  const base = run(reduceSkillsState(undefined, undefined), ancestor);
  return { base, states: forks.map((actions) => agentOf(run(base, actions), "a")) };
}

describe("merge of whole agent entries", () => {
  it("is commutative, associative and idempotent", () => {
    // Which pairs the generator produced: the interesting ones are those at one seq with different contents.
    const seen = { newer: 0, sameStep: 0, otherStart: 0 };
    fc.assert(
      fc.property(forksArb, ({ ancestor, forks }) => {
        const [x, y, z] = forkStates(ancestor, forks).states as [AgentSkillsState, AgentSkillsState, AgentSkillsState];
        for (const [one, two] of [
          [x, y],
          [y, z],
          [x, z],
        ] as const)
          if (one.load.seq !== two.load.seq) seen.newer++;
          else if (canonical(one) !== canonical(two))
            seen[canonical(one.load.journal?.base) === canonical(two.load.journal?.base) ? "sameStep" : "otherStart"]++;
        const merge = mergeAgentSkillsState;
        expect(canonical(merge(x, y))).toBe(canonical(merge(y, x)));
        expect(canonical(merge(merge(x, y), z))).toBe(canonical(merge(x, merge(y, z))));
        expect(canonical(merge(x, x))).toBe(canonical(merge(undefined, x)));
        expect(canonical(merge(merge(x, y), y))).toBe(canonical(merge(x, y)));
      }),
      { numRuns: 500 },
    );
    expect(seen.newer).toBeGreaterThan(0);
    expect(seen.sameStep).toBeGreaterThan(0);
    expect(seen.otherStart).toBeGreaterThan(0);
  });

  it("joins a one-step whole entry with the same step's event updates as one step, in any order", () => {
    fc.assert(
      fc.property(
        fc.array(actionArb, { maxLength: 6, size: "max" }),
        actionArb,
        actionArb,
        (ancestor, first, second) => {
          const { base } = forkStates(ancestor, []);
          const start = agentOf(base, "a");
          const one = writeAction(start, first);
          const two = writeAction(start, second);
          fc.pre(one !== undefined && two !== undefined);
          // A subgraph branch that took step `one` writes its whole entry; a node branch writes `two` as events; a third
          // branch writes back its stale copy of the agent.
          const whole = reduceSkillsState(base, { a: one! });
          const writes: SkillsStateUpdate[] = [whole, { a: two! }, base];
          const expected = sortModel({ a: modelStep(project(base).a ?? emptyModelAgent(), [one!, two!]) });
          for (const order of permutations(writes)) expect(project(applyAll(base, order))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
