// One sample of the figures the before/after benchmark compares, in a fresh process of whichever checkout it sits in
// (bench/before-after.ts copies this file into the baseline checkout, so both run the same code against their own
// packages). Prints one JSON line.
//   cold DIR           registry load from the skill files, no snapshot (CPU ms), then the first search (ms)
//   snapshot DIR FILE  registry load from a snapshot file an earlier process of the same checkout wrote
//   calls DIR          per-call overhead: a scripted tool loop through createAgent + skills middleware, with and
//                      without skills (1 000 registered, 3 loaded), ms per model call: the mean wall time, and the CPU
//                      time of the median call (which a busy machine disturbs less)
import { performance } from "node:perf_hooks";
import { createSkillRegistry, skillsFromDirectory } from "../../packages/core/src/index.js";
import { HumanMessage } from "../../packages/langgraph/src/__fixtures__/langchain.js";
import { RecordingChatModel } from "../../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { buildAgent, toolLoop } from "./interceptor-harness.js";

const [mode, dir, snapshotFile] = process.argv.slice(2);
const CALLS = 200;

async function load(snapshot: string | false) {
  // Start from a collected heap: otherwise the garbage module loading left behind is collected inside the timed load
  // or not, by chance, on either side (one scavenge, 15-25 ms, in some samples).
  globalThis.gc?.();
  const cpuStart = process.cpuUsage();
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir!)], snapshot });
  const cpu = process.cpuUsage(cpuStart);
  const searchStart = performance.now();
  registry.search("fill in a pdf form");
  return { loadCpuMs: (cpu.user + cpu.system) / 1000, firstSearchMs: performance.now() - searchStart, registry };
}

async function perCall(registry: Awaited<ReturnType<typeof load>>["registry"], withSkills: boolean) {
  const names = registry.list().map((skill) => skill.name);
  const first = [names[3], names[50], names[120]].map((name) => ({
    toolCalls: [{ name: "read_skill", args: { name } }],
  }));
  const model = new RecordingChatModel(withSkills ? toolLoop(CALLS, first) : toolLoop(CALLS));
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const original = model._generate.bind(model);
  model._generate = async (...args) => {
    times.push(performance.now());
    const cpu = process.cpuUsage();
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    model.calls.length = 0;
    return original(...args);
  };
  const agent = buildAgent(
    "middleware",
    model,
    withSkills ? { skills: registry, loadMode: "session" } : undefined,
    undefined,
  );
  await agent.invoke(
    { messages: [new HumanMessage("go")] },
    { configurable: { thread_id: "probe" }, recursionLimit: 1000 },
  );
  // The median call's CPU time: a mean over the run swings with whether a major garbage collection or an optimizing
  // compile happened to fall inside it; the median call is the steady cost of one call.
  const calls = cpuTimes.slice(1).map((time, index) => time - cpuTimes[index]!);
  calls.sort((a, b) => a - b);
  return {
    wallMs: (times[times.length - 1]! - times[0]!) / (CALLS - 1),
    cpuMs: calls[calls.length >> 1]!,
  };
}

if (mode === "cold" || mode === "snapshot") {
  const { loadCpuMs, firstSearchMs, registry } = await load(mode === "snapshot" ? snapshotFile! : false);
  const snapshotProblems = registry
    .diagnostics()
    .filter((diagnostic) => String(diagnostic.code).startsWith("registry-snapshot"))
    .map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`);
  process.stdout.write(
    `${JSON.stringify({ loadCpuMs, firstSearchMs, skills: registry.list().length, snapshotProblems })}\n`,
  );
} else if (mode === "write-snapshot") {
  await load(snapshotFile!);
  process.stdout.write(`${JSON.stringify({ written: snapshotFile })}\n`);
} else if (mode === "calls") {
  const { registry } = await load(false);
  await perCall(registry, true); // warm-up: module loading and JIT, not measured
  const without = await perCall(registry, false);
  const withSkills = await perCall(registry, true);
  const result = {
    perCallMs: withSkills.wallMs,
    perCallCpuMs: withSkills.cpuMs,
    withoutCpuMs: without.cpuMs,
    overheadMs: withSkills.wallMs - without.wallMs,
    overheadCpuMs: withSkills.cpuMs - without.cpuMs,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  throw new Error(`hub-probe: unknown mode '${mode}' (cold | snapshot | write-snapshot | calls)`);
}
