import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyLoadEvents } from "./apply-load-events.js";
import { createLoadStateReducer } from "./create-load-state-reducer.js";
import { emptyLoadState } from "./empty-load-state.js";
import type { LoadMode, SkillLoadEvent, SkillLoadState } from "./load-state-types.js";
import { nextSeq } from "./next-seq.js";

/** An event without its seq: the seq is stamped when the step is applied. */
type Template = {
  [T in SkillLoadEvent["type"]]: Omit<Extract<SkillLoadEvent, { type: T }>, "seq">;
}[SkillLoadEvent["type"]];

const name = fc.constantFrom("a", "b", "c", "d", "e");
const mode = fc.constantFrom<LoadMode>("once", "turn", "session");
const toolEvent: fc.Arbitrary<Template> = fc.oneof(
  fc.record({ type: fc.constant("load" as const), name, mode, hash: fc.constantFrom("h1", "h2", "h3") }),
  fc.record({ type: fc.constant("touch" as const), name }),
  fc.record({ type: fc.constant("doc" as const), name, path: fc.constantFrom("x.md", "refs/y.md", "z.md") }),
  fc.record({ type: fc.constant("unload" as const), name }),
);
const anyEvent: fc.Arbitrary<Template> = fc.oneof(
  { weight: 8, arbitrary: toolEvent },
  { weight: 1, arbitrary: fc.constantFrom<Template>({ type: "model-call" }, { type: "end-turn" }, { type: "reset" }) },
);
const update = fc.array(anyEvent, { minLength: 1, maxLength: 3 });
/** A step: the updates of parallel tool calls, all stamped with the same seq. */
const step = fc.array(update, { minLength: 1, maxLength: 3 });
const maxLoadedSkills = fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined });

const stamp = (templates: readonly Template[], seq: number) =>
  templates.map((template) => ({ ...template, seq }) as SkillLoadEvent);

/** Runs steps through the reducer, each update of a step stamped with nextSeq of the state before the step. */
function runSteps(steps: readonly Template[][][], cap: number | undefined, initial = emptyLoadState()): SkillLoadState {
  const reduce = createLoadStateReducer(cap === undefined ? {} : { maxLoadedSkills: cap });
  let state = initial;
  for (const updates of steps) {
    const seq = nextSeq(state);
    for (const templates of updates) state = reduce(state, stamp(templates, seq));
  }
  return state;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

describe("load state merge of parallel updates", () => {
  it("gives byte-identical states for every order of one step's parallel updates", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 6 }),
        fc.array(update, { minLength: 2, maxLength: 4 }),
        maxLoadedSkills,
        (history, parallel, cap) => {
          const before = runSteps(history, cap);
          const results = permutations(parallel).map((order) => JSON.stringify(runSteps([order], cap, before)));
          expect(new Set(results).size).toBe(1);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("gives the same state whether a step's updates arrive one by one or as one list", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 5 }),
        fc.array(update, { minLength: 1, maxLength: 4 }),
        maxLoadedSkills,
        (history, parallel, cap) => {
          const before = runSteps(history, cap);
          const oneByOne = runSteps([parallel], cap, before);
          const together = runSteps([[parallel.flat()]], cap, before);
          expect(together).toEqual(oneByOne);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never holds more skills than maxLoadedSkills after any update", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), fc.integer({ min: 1, max: 3 }), (history, cap) => {
        const reduce = createLoadStateReducer({ maxLoadedSkills: cap });
        let state = emptyLoadState();
        for (const updates of history) {
          const seq = nextSeq(state);
          for (const templates of updates) {
            state = reduce(state, stamp(templates, seq));
            expect(Object.keys(state.loaded).length).toBeLessThanOrEqual(cap);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reports as evicted exactly the skills that were loaded, are gone, and were not removed by an event", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 5 }),
        fc.array(toolEvent, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 2 }),
        (history, events, cap) => {
          const before = runSteps(history, cap);
          const { state, evicted } = applyLoadEvents(before, stamp(events, nextSeq(before)), { maxLoadedSkills: cap });
          const unloaded = new Set(events.flatMap((event) => (event.type === "unload" ? [event.name] : [])));
          const present = new Set([
            ...Object.keys(before.loaded),
            ...events.flatMap((event) => (event.type === "load" ? [event.name] : [])),
          ]);
          const expected = [...present].filter(
            (skill) =>
              !(skill in state.loaded) &&
              !(unloaded.has(skill) && !events.some((event) => event.type === "load" && event.name === skill)),
          );
          expect(evicted).toEqual(expected.sort());
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Steps that neither remove skills nor load `x` again: touches, docs and loads of other skills. */
const quietStep = fc.array(
  fc.array(
    fc.oneof(
      fc.record({ type: fc.constant("load" as const), name: fc.constantFrom("a", "b"), mode, hash: fc.constant("h") }),
      fc.record({ type: fc.constant("touch" as const), name: fc.constantFrom("a", "x") }),
      fc.record({ type: fc.constant("doc" as const), name: fc.constantFrom("a", "x"), path: fc.constant("r.md") }),
    ) as fc.Arbitrary<Template>,
    { minLength: 1, maxLength: 3 },
  ),
  { minLength: 1, maxLength: 2 },
);

describe("load modes over time", () => {
  it("shows a once skill's body until exactly the next model-call event (consumed after it, not gone)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 4 }), fc.array(quietStep, { maxLength: 4 }), (history, quiet) => {
        const loaded = runSteps(
          [...history, [[{ type: "load", name: "x", mode: "once", hash: "h" }]], ...quiet],
          undefined,
        );
        expect(loaded.loaded.x?.mode).toBe("once");
        expect(loaded.loaded.x?.consumed).toBeUndefined();
        const after = runSteps([[[{ type: "model-call" }]]], undefined, loaded);
        expect(after.loaded.x?.consumed).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps session skills and drops turn skills at end-turn", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 4 }),
        fc.array(quietStep, { maxLength: 4 }),
        fc.boolean(),
        (history, quiet, withModelCalls) => {
          const loadBoth: Template[] = [
            { type: "load", name: "x", mode: "session", hash: "h" },
            { type: "load", name: "y", mode: "turn", hash: "h" },
          ];
          const middle = withModelCalls
            ? quiet.flatMap((updates) => [updates, [[{ type: "model-call" } as Template]]])
            : quiet;
          const loaded = runSteps([...history, [loadBoth], ...middle], undefined);
          expect(loaded.loaded.y?.mode).toBe("turn");
          const after = runSteps([[[{ type: "end-turn" }]]], undefined, loaded);
          expect(after.loaded.x?.mode).toBe("session");
          expect(after.loaded.y).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});
