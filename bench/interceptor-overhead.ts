// Per-model-call overhead of the skills runtime (bench-peers README section b): a 200-call scripted tool loop on
// one thread, with 1 000 skills registered (generated from the corpus like gen.mjs) and 3 of them loaded, against
// the same agent without skills. Both shapes (createAgent + middleware, hand-built graph + interceptor), with a
// MemorySaver and without a checkpointer. Also the engine's request rewrite alone (no graph).
// Run: node --expose-gc --conditions=@skillgraph/source --import tsx bench/interceptor-overhead.ts [--quick]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { HumanMessage, MemorySaver, AIMessage } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { createSkillsEngine } from "../packages/langgraph/src/engine/skills-engine.js";
import { prepareModelCall } from "../packages/langgraph/src/engine/state-events.js";
import { buildModelRequest } from "../packages/langgraph/src/engine/model-request.js";
import { applyAgentSkillsUpdate } from "../packages/langgraph/src/state/skills-state.js";
import { resolveOptions } from "../packages/langgraph/src/options/resolve-options.js";
import { emptyAgentSkillsState } from "../packages/langgraph/src/state/skills-state.js";
import { buildAgent, noop, toolLoop } from "./support/interceptor-harness.js";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const N = 1000;
const CALLS = 200;
const pairs = quick ? 1 : 5;

const { dir, manifest } = await skillTree(N);
const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
const loadedNames = [manifest.skills[3]!.name, manifest.skills[50]!.name, manifest.skills[120]!.name];
const first = loadedNames.map((name) => ({ toolCalls: [{ name: "read_skill", args: { name } }] }));

async function run(
  kind: "middleware" | "interceptor",
  withSkills: boolean,
  checkpointer: boolean,
): Promise<{ total: number; steady: number }> {
  global.gc?.();
  const script = withSkills ? toolLoop(CALLS, first) : toolLoop(CALLS);
  const model = new RecordingChatModel(script);
  const times: number[] = [];
  const original = model._generate.bind(model);
  model._generate = async (...args) => {
    times.push(performance.now());
    model.calls.length = 0; // keep memory flat: the recording is not needed here
    // unique reply and call ids for both agents: the recording model repeats them (as the worst endpoints do), which
    // only the skills runtime settles; without it the agent without skills would replace its replies and stop
    const result = await original(...args);
    const reply = result.generations[0]!.message as AIMessage;
    const step = times.length;
    result.generations[0]!.message = new AIMessage({
      id: `reply-${step}`,
      content: reply.content,
      tool_calls: (reply.tool_calls ?? []).map((call, index) => ({ ...call, id: `call-${step}-${index}` })),
    });
    return result;
  };
  const agent = buildAgent(
    kind,
    model,
    withSkills ? { skills: registry, loadMode: "session" } : undefined,
    checkpointer ? new MemorySaver() : undefined,
  );
  const start = performance.now();
  await agent.invoke(
    { messages: [new HumanMessage("go")] },
    { configurable: { thread_id: "bench" }, recursionLimit: 1000 },
  );
  const total = performance.now() - start;
  if (times.length !== CALLS) throw new Error(`expected ${CALLS} model calls, got ${times.length}`);
  return { total, steady: times[times.length - 1]! - times[0]! };
}

const results: Record<string, unknown> = {};
for (const kind of ["middleware", "interceptor"] as const) {
  for (const checkpointer of [true, false]) {
    await run(kind, true, checkpointer);
    await run(kind, false, checkpointer);
    const perCall: number[] = [];
    const perCallSteady: number[] = [];
    const withTotals: number[] = [];
    const withoutTotals: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? [true, false] : [false, true];
      const out: Record<string, { total: number; steady: number }> = {};
      for (const withSkills of order) out[String(withSkills)] = await run(kind, withSkills, checkpointer);
      const w = out["true"]!;
      const wo = out["false"]!;
      perCall.push((w.total - wo.total) / CALLS);
      perCallSteady.push((w.steady - wo.steady) / (CALLS - 1));
      withTotals.push(w.total);
      withoutTotals.push(wo.total);
    }
    const key = `${kind}/${checkpointer ? "MemorySaver" : "no checkpointer"}`;
    results[key] = {
      overheadPerCallMs: round(median(perCall), 3),
      overheadPerCallExcludingFirstMs: round(median(perCallSteady), 3),
      samples: perCall.map((value) => round(value, 3)),
      runWithSkillsMs: round(median(withTotals), 1),
      runWithoutSkillsMs: round(median(withoutTotals), 1),
    };
    const met = median(perCall) <= 0.5 ? "MET" : "NOT MET";
    console.log(
      `${key.padEnd(32)} overhead/call ${round(median(perCall), 3)} ms (excl. first ${round(median(perCallSteady), 3)} ms; goal <= 0.5 ms over the same agent without skills: ${met}); run with ${round(median(withTotals), 0)} ms, without ${round(median(withoutTotals), 0)} ms`,
    );
  }
}

// The engine alone: rewrite one request of a 400-message conversation with 3 skills loaded.
const engine = createSkillsEngine(resolveOptions({ skills: registry, loadMode: "session" }));
let state = emptyAgentSkillsState();
for (const name of loadedNames)
  state = applyAgentSkillsUpdate(state, {
    events: [{ type: "load", name, mode: "session", hash: registry.get(name)!.hash, seq: state.load.seq + 1 }],
  });
const messages = [new HumanMessage("go"), ...Array.from({ length: 400 }, (_, index) => new AIMessage(`step ${index}`))];
const samples: number[] = [];
for (let i = 0; i < (quick ? 200 : 2000); i++) {
  const start = performance.now();
  const prepared = prepareModelCall(state, messages, registry, engine.options);
  await buildModelRequest(engine, {
    state: prepared.state,
    catalog: registry,
    systemText: "You are a helpful assistant.",
    messages,
    tools: [noop],
  });
  samples.push(performance.now() - start);
}
results["engine/buildModelRequest"] = {
  medianMs: round(median(samples.slice(10)), 4),
  note: "1 000 skills, 3 loaded, 401 messages, no graph",
};
console.log(
  `engine prepare+buildModelRequest (1 000 skills, 3 loaded, 401 messages): median ${round(median(samples.slice(10)), 4)} ms`,
);

const out = join(import.meta.dirname, "results", "interceptor-overhead.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      n: N,
      calls: CALLS,
      pairs,
      loaded: loadedNames.length,
      node: process.version,
      date: new Date().toISOString(),
      results,
    },
    null,
    2,
  ),
);
console.log(`written ${out}`);
