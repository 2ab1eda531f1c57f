// Per-model-call overhead of the skills runtime (bench-peers README section b): a 200-call scripted tool loop on
// one thread, with 1 000 skills registered (generated from the corpus like gen.mjs) and 3 of them loaded, against
// the same agent without skills. Both shapes (createAgent + middleware, hand-built graph + interceptor), with a
// MemorySaver and without a checkpointer. For the middleware, also its floor: createAgent with a middleware of the
// same shape that does nothing, piece by piece (what LangChain and LangGraph cost for any such middleware); for the
// interceptor, the same graph with LangChain's ToolNode (which the interceptor's tool node runs the calls in). Also the
// engine's request rewrite alone (no graph). Runs alternate in one process; figures are medians of the rounds, as
// wall time and as CPU time of the process (steadier on a shared machine).
// Run: node --expose-gc --conditions=@skillgraph/source --import tsx bench/interceptor-overhead.ts [--quick]
//   [--only=middleware/MemorySaver,interceptor/MemorySaver] (some shapes only; written to interceptor-overhead-only.json)
//   [--rounds=N] (rounds of every shape; default 5, and 9 for the middleware without a checkpointer)
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { HumanMessage, MemorySaver, AIMessage } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { createSkillsMiddleware, type SkillsRuntimeOptions } from "../packages/langgraph/src/index.js";
import {
  buildAgent,
  buildMiddlewareAgent,
  buildPlainGraph,
  engineRewriteMs,
  FLOOR_PIECES,
  floorMiddleware,
  toolLoop,
  type FloorPiece,
} from "./support/interceptor-harness.js";
import { skillTree } from "./support/skill-trees.js";
import { bootstrapInterval } from "./support/bootstrap-interval.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
// --only=KEY[,KEY]: run only these shapes (keys as printed, e.g. middleware/MemorySaver) and no engine figures.
const only = process.argv
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const selected = (key: string) => !only || only.includes(key);
const N = 1000;
const CALLS = 200;
// --rounds=N: rounds of every shape (default 5; 9 for the middleware without a checkpointer, whose six agents' floor
// pieces differ by a fraction of the noise of one run)
const roundsArg = process.argv.find((arg) => arg.startsWith("--rounds="))?.slice("--rounds=".length);
const floorRounds = quick ? 1 : Number(roundsArg ?? 9);
const rounds = quick ? 1 : Number(roundsArg ?? 5);
const GOAL_MS = 0.5;

const { dir, manifest } = await skillTree(N);
const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
const skills: SkillsRuntimeOptions = { skills: registry, loadMode: "session" };
const loadedNames = [manifest.skills[3]!.name, manifest.skills[50]!.name, manifest.skills[120]!.name];
const first = loadedNames.map((name) => ({ toolCalls: [{ name: "read_skill", args: { name } }] }));

/**
 * Per model call of one run: wall time, CPU time of the process, wall time excluding the first call, and kilobytes the
 * MemorySaver stored (checkpoints and writes, as serialized; 0 without one): a figure the machine's load cannot move.
 */
interface PerCall {
  wall: number;
  cpu: number;
  steady: number;
  storedKb: number;
}

/** What one run builds: the agent shape, with skills or a floor piece or neither, with or without a MemorySaver. */
type Variant = "none" | FloorPiece | "skills" | "ToolNode";

async function run(kind: "middleware" | "interceptor", variant: Variant, checkpointer: boolean): Promise<PerCall> {
  global.gc?.();
  const model = new RecordingChatModel(variant === "skills" ? toolLoop(CALLS, first) : toolLoop(CALLS));
  const times: number[] = [];
  const original = model._generate.bind(model);
  model._generate = async (...args) => {
    times.push(performance.now());
    model.calls.length = 0; // keep memory flat: the recording is not needed here
    // unique reply and call ids for every agent: the recording model repeats them (as the worst endpoints do), which
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
  const saver = checkpointer ? new MemorySaver() : undefined;
  const agent =
    kind === "middleware"
      ? buildMiddlewareAgent(model, middlewareOf(variant), saver)
      : variant === "skills"
        ? buildAgent(kind, model, skills, saver)
        : buildPlainGraph(model, saver, variant === "ToolNode");
  const cpu = process.cpuUsage();
  const start = performance.now();
  await agent.invoke(
    { messages: [new HumanMessage("go")] },
    { configurable: { thread_id: "bench" }, recursionLimit: 1000 },
  );
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (times.length !== CALLS) throw new Error(`expected ${CALLS} model calls, got ${times.length}`);
  return {
    wall: wall / CALLS,
    cpu: (used.user + used.system) / 1000 / CALLS,
    steady: (times[times.length - 1]! - times[0]!) / (CALLS - 1),
    storedKb: saver ? storedBytes(saver) / 1000 / CALLS : 0,
  };
}

/** Bytes a MemorySaver holds: every checkpoint with its metadata, and every pending write. */
function storedBytes(saver: MemorySaver): number {
  let bytes = 0;
  for (const namespaces of Object.values(saver.storage))
    for (const checkpoints of Object.values(namespaces))
      for (const [checkpoint, metadata] of Object.values(checkpoints)) bytes += checkpoint.length + metadata.length;
  for (const writes of Object.values(saver.writes))
    for (const write of Object.values(writes)) bytes += (write[2] as Uint8Array).length;
  return bytes;
}

function middlewareOf(variant: Variant) {
  if (variant === "ToolNode") throw new Error("ToolNode is a variant of the hand-built graph");
  if (variant === "none") return [];
  if (variant === "skills") return [createSkillsMiddleware(skills)];
  return [floorMiddleware(variant)];
}

/**
 * Runs every variant once per round, in an order that rotates each round (so no variant always runs first or
 * last), after one warm-up run each; returns each variant's per-call figures, one per round.
 */
async function alternate(
  kind: "middleware" | "interceptor",
  variants: readonly Variant[],
  { checkpointer, passes }: { checkpointer: boolean; passes: number },
): Promise<Map<Variant, PerCall[]>> {
  const out = new Map<Variant, PerCall[]>(variants.map((variant) => [variant, []]));
  for (const variant of variants) await run(kind, variant, checkpointer);
  for (let pass = 0; pass < passes; pass++) {
    const order = variants.map((_, index) => variants[(index + pass) % variants.length]!);
    if (pass % 2 === 1) order.reverse();
    for (const variant of order) out.get(variant)!.push(await run(kind, variant, checkpointer));
  }
  return out;
}

/**
 * How far the rounds spread (lowest and highest CPU difference a − b of one round), and the difference of the two
 * least disturbed runs (lowest CPU time of each): other sessions only ever add time, so the lowest runs are the
 * steadiest estimate on a shared machine.
 */
function spread(a: PerCall[], b: PerCall[]): string {
  const diffs = a.map((sample, index) => sample.cpu - b[index]!.cpu);
  const lowest = (samples: PerCall[]) => Math.min(...samples.map((sample) => sample.cpu));
  return `CPU rounds ${round(Math.min(...diffs), 2)}..${round(Math.max(...diffs), 2)}, lowest run vs lowest run ${round(lowest(a) - lowest(b), 3)} ms CPU`;
}

/**
 * The 90% bootstrap interval of the median over rounds of (a − b) in the same round, for `key`: how far the machine's
 * noise leaves the median figure uncertain (it narrows with more rounds, `--rounds=N`).
 */
function medianInterval(a: PerCall[], b: PerCall[], key: "wall" | "cpu"): [number, number] {
  const diffs = a.map((sample, index) => sample[key] - b[index]![key]);
  const [low, high] = bootstrapInterval([diffs], ([resampled]) => median(resampled!));
  return [round(low, 3), round(high, 3)];
}

/** The interval as printed, and what it says of the goal: under it, over it, or not told apart from it. */
function intervalText([low, high]: [number, number]): string {
  const says = high <= GOAL_MS ? "under the goal" : low > GOAL_MS ? "over the goal" : "spans the goal";
  return `90% interval of the median ${low}..${high} ms (${says})`;
}

/** Median over rounds of (a − b) in the same round, per field. */
function over(a: PerCall[], b: PerCall[]): PerCall {
  const field = (key: keyof PerCall) => round(median(a.map((sample, index) => sample[key] - b[index]![key])), 3);
  return { wall: field("wall"), cpu: field("cpu"), steady: field("steady"), storedKb: field("storedKb") };
}

/** Median kilobytes stored per model call over the rounds. */
function stored(samples: PerCall[]): number {
  return round(median(samples.map((sample) => sample.storedKb)), 1);
}

/** What the MemorySaver stored per model call with skills and without. */
function storedLine(withSkills: PerCall[], without: PerCall[]): string {
  const a = stored(withSkills);
  const b = stored(without);
  return `MemorySaver stored ${a} kB per model call with skills, ${b} kB without (+${round(((a - b) / b) * 100, 1)}%)`;
}

const results: Record<string, unknown> = {};
const verdict = (ms: number) => (ms <= GOAL_MS ? "MET" : "NOT MET");

for (const checkpointer of [false, true]) {
  const saver = checkpointer ? "MemorySaver" : "no checkpointer";
  if (!selected(`middleware/${saver}`)) continue;
  // The floor piece by piece without a checkpointer; with a MemorySaver only the whole no-op middleware.
  const pieces: FloorPiece[] = checkpointer ? ["wrapToolCall"] : [...FLOOR_PIECES];
  const passes = checkpointer ? rounds : floorRounds;
  const samples = await alternate("middleware", ["none", ...pieces, "skills"], { checkpointer, passes });
  const none = samples.get("none")!;
  const skillsOver = over(samples.get("skills")!, none);
  const floorOver = over(samples.get("wrapToolCall")!, none);
  const skillsOverFloor = over(samples.get("skills")!, samples.get("wrapToolCall")!);
  const wallInterval = medianInterval(samples.get("skills")!, none, "wall");
  console.log(
    `middleware/${saver.padEnd(16)} overhead/call ${skillsOver.wall} ms wall, ${skillsOver.cpu} ms CPU (excl. first ${skillsOver.steady} ms; goal <= ${GOAL_MS} ms over the same agent without skills: ${verdict(skillsOver.wall)} wall, ${verdict(skillsOver.cpu)} CPU; ${passes} rounds, ${spread(samples.get("skills")!, none)}; wall ${intervalText(wallInterval)}); bare createAgent ${round(median(none.map((sample) => sample.wall)), 3)} ms/call wall, ${round(median(none.map((sample) => sample.cpu)), 3)} ms CPU`,
  );
  let previous: PerCall[] = none;
  for (const piece of pieces) {
    const current = samples.get(piece)!;
    const total = over(current, none);
    const step = over(current, previous);
    console.log(
      `  floor: no-op middleware up to ${piece.padEnd(13)} ${total.wall} ms wall, ${total.cpu} ms CPU over bare createAgent${checkpointer ? "" : ` (this piece: ${step.wall} ms wall, ${step.cpu} ms CPU)`}; ${spread(current, none)}`,
    );
    previous = current;
  }
  console.log(
    `  skills middleware over the whole no-op middleware: ${skillsOverFloor.wall} ms wall, ${skillsOverFloor.cpu} ms CPU (${spread(samples.get("skills")!, samples.get("wrapToolCall")!)})`,
  );
  if (checkpointer) console.log(`  ${storedLine(samples.get("skills")!, none)}`);
  results[`middleware/${saver}`] = {
    overheadPerCallMs: skillsOver.wall,
    overheadPerCallWallInterval90: wallInterval,
    overheadPerCallCpuMs: skillsOver.cpu,
    overheadPerCallExcludingFirstMs: skillsOver.steady,
    overNoOpMiddlewareMs: skillsOverFloor.wall,
    overNoOpMiddlewareCpuMs: skillsOverFloor.cpu,
    floorOverBareMs: floorOver.wall,
    floorOverBareCpuMs: floorOver.cpu,
    floorPieces: Object.fromEntries(pieces.map((piece) => [piece, over(samples.get(piece)!, none)])),
    bareCreateAgentMsPerCall: round(median(none.map((sample) => sample.wall)), 3),
    ...(checkpointer ? { storedKbPerCall: stored(samples.get("skills")!), bareStoredKbPerCall: stored(none) } : {}),
  };
}

for (const checkpointer of [true, false]) {
  const key = `interceptor/${checkpointer ? "MemorySaver" : "no checkpointer"}`;
  if (!selected(key)) continue;
  const samples = await alternate("interceptor", ["skills", "none", "ToolNode"], { checkpointer, passes: rounds });
  const none = samples.get("none")!;
  const skillsOver = over(samples.get("skills")!, none);
  const toolNodeOver = over(samples.get("ToolNode")!, none);
  const overToolNode = over(samples.get("skills")!, samples.get("ToolNode")!);
  const wallInterval = medianInterval(samples.get("skills")!, none, "wall");
  console.log(
    `${key.padEnd(32)} overhead/call ${skillsOver.wall} ms wall, ${skillsOver.cpu} ms CPU (excl. first ${skillsOver.steady} ms; goal <= ${GOAL_MS} ms over the same graph without skills: ${verdict(skillsOver.wall)} wall, ${verdict(skillsOver.cpu)} CPU; ${rounds} rounds, ${spread(samples.get("skills")!, none)}; wall ${intervalText(wallInterval)}); bare graph ${round(median(none.map((sample) => sample.wall)), 3)} ms/call wall`,
  );
  if (checkpointer) console.log(`  ${storedLine(samples.get("skills")!, none)}`);
  console.log(
    `  floor: the same graph with LangChain's ToolNode as its tools node ${toolNodeOver.wall} ms wall, ${toolNodeOver.cpu} ms CPU over the graph without it; the interceptor over that graph ${overToolNode.wall} ms wall, ${overToolNode.cpu} ms CPU`,
  );
  results[key] = {
    overheadPerCallMs: skillsOver.wall,
    overheadPerCallWallInterval90: wallInterval,
    overheadPerCallCpuMs: skillsOver.cpu,
    overheadPerCallExcludingFirstMs: skillsOver.steady,
    toolNodeOverBareMs: toolNodeOver.wall,
    toolNodeOverBareCpuMs: toolNodeOver.cpu,
    overToolNodeGraphMs: overToolNode.wall,
    overToolNodeGraphCpuMs: overToolNode.cpu,
    bareGraphMsPerCall: round(median(none.map((sample) => sample.wall)), 3),
    ...(checkpointer ? { storedKbPerCall: stored(samples.get("skills")!), bareStoredKbPerCall: stored(none) } : {}),
  };
}

// The engine alone: rewrite one request of a 400-message conversation with 3 skills loaded.
for (const withResults of only ? [] : [false, true]) {
  const ms = await engineRewriteMs({ registry, loadedNames, withResults, iterations: quick ? 200 : 2000 });
  const what = withResults ? "their 3 read_skill results among the messages" : "no read_skill result among them";
  results[`engine/buildModelRequest${withResults ? "/with results" : ""}`] = {
    medianMs: round(ms, 4),
    note: `1 000 skills, 3 loaded, 401 messages, ${what}, no graph`,
  };
  console.log(
    `engine prepare+buildModelRequest (1 000 skills, 3 loaded, 401 messages, ${what}): median ${round(ms, 4)} ms`,
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ")}`,
);

const out = join(import.meta.dirname, "results", only ? "interceptor-overhead-only.json" : "interceptor-overhead.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      n: N,
      calls: CALLS,
      rounds,
      floorRounds,
      loaded: loadedNames.length,
      node: process.version,
      date: new Date().toISOString(),
      loadAverage: loadavg(),
      results,
    },
    null,
    2,
  ),
);
console.log(`written ${out}`);
