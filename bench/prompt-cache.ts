// Prompt-cache prefix stability (bench-peers README section e) of the skills runtime, for each tool exposure mode
// and both body placements: session noop, read_skill a, noop, read_skill b, noop, answer (6 requests), each request
// serialized as JSON lines {system}, {tools}, one line per message; ratio = common prefix / length of the earlier.
// Plus prompt tokens (o200k_base) of progressive disclosure against full injection of every corpus body.
// Run: node --expose-gc --conditions=@skillgraph/source --import tsx bench/prompt-cache.ts [--quick]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { createSkillRegistry, skillsFromDirectory, type SkillRegistry } from "../packages/core/src/index.js";
import { HumanMessage } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import type { BodyPlacement, ToolExposure } from "../packages/langgraph/src/index.js";
import { CORPUS_DIR } from "../test/support/shared-paths.js";
import { buildAgent, peerLib, stubTool } from "./support/interceptor-harness.js";
import { skillTree } from "./support/skill-trees.js";
import { round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const sizes = quick ? [187] : [187, 1000];
const lib = await peerLib();
const encoder = getEncoding("o200k_base");
const tokens = (text: string) => encoder.encode(text, [], []).length;
const pool = ["Read", "Write", "Edit", "Bash"].map(stubTool);

async function session(
  registry: SkillRegistry,
  a: string,
  b: string,
  toolExposure: ToolExposure,
  bodyPlacement: BodyPlacement,
  kind: "middleware" | "interceptor",
) {
  const model = new RecordingChatModel([
    { toolCalls: [{ name: "noop", args: {} }] },
    { toolCalls: [{ name: "read_skill", args: { name: a } }] },
    { toolCalls: [{ name: "noop", args: {} }] },
    { toolCalls: [{ name: "read_skill", args: { name: b } }] },
    { toolCalls: [{ name: "noop", args: {} }] },
    { content: "done" },
  ]);
  const skillTools = {
    [a]: [stubTool(`${a.slice(0, 20)}_convert`), stubTool(`${a.slice(0, 20)}_check`)],
    [b]: [stubTool(`${b.slice(0, 20)}_run`)],
  };
  const agent = buildAgent(
    kind,
    model,
    { skills: registry, toolExposure, bodyPlacement, tools: pool, skillTools },
    undefined,
  );
  await agent.invoke(
    { messages: [new HumanMessage("Work through the task.")] },
    { configurable: { thread_id: "cache" } },
  );
  if (model.calls.length !== 6) throw new Error(`expected 6 requests, got ${model.calls.length}`);
  const serialized = model.calls.map((call) =>
    lib.serializeRequest({ system: call.system, tools: call.tools, messages: call.messages }),
  );
  const stability = lib.prefixStability(serialized);
  const worst = stability.pairs.reduce((low, pair) => (pair.ratio < low.ratio ? pair : low));
  const promptTokens = model.calls.map((call) => tokens(serialized[model.calls.indexOf(call)]!));
  return {
    mean: round(stability.mean, 4),
    min: round(stability.min, 4),
    worstPairFirstDifference: worst.firstDifference,
    lengths: stability.lengths,
    tokensPerRequest: promptTokens,
    tokensTotal: promptTokens.reduce((sum, value) => sum + value, 0),
  };
}

const results: Record<string, unknown> = {};
for (const n of sizes) {
  const { dir, manifest } = await skillTree(n);
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
  const [a, b] = lib.pickSessionSkills(manifest, 2) as [string, string];
  for (const kind of ["middleware", "interceptor"] as const) {
    for (const exposure of ["dynamic", "static", "dispatcher"] as const) {
      for (const placement of ["tool-result", "system-prompt"] as const) {
        const result = await session(registry, a, b, exposure, placement, kind);
        results[`n${n}/${kind}/${exposure}/${placement}`] = { a, b, ...result };
        console.log(
          `N=${n} ${kind.padEnd(11)} ${exposure.padEnd(10)} ${placement.padEnd(13)} prefix ratio mean ${result.mean.toFixed(4)} min ${result.min.toFixed(4)} (worst pair differs at: ${result.worstPairFirstDifference}); tokens over 6 requests ${result.tokensTotal}`,
        );
      }
    }
  }
}

// Progressive disclosure vs full injection over the corpus (each corpus SKILL.md once, N = 187).
const { dir: corpusTree } = await skillTree(187);
const corpusRegistry = await createSkillRegistry({ sources: [skillsFromDirectory(corpusTree)] });
const sectionOf = async (budget: number | undefined) => {
  const model = new RecordingChatModel([{ content: "done" }]);
  const agent = buildAgent(
    "middleware",
    model,
    { skills: corpusRegistry, ...(budget ? { prompt: { budget: { maxChars: budget } } } : {}) },
    undefined,
  );
  await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "tokens" } });
  return model.calls[0]!.system.slice("You are a helpful assistant.".length);
};
const defaultSection = await sectionOf(undefined);
const fullSection = await sectionOf(10_000_000);
const injection = lib.fullInjection(join(CORPUS_DIR, "skills"));
const tokenFigures = {
  skillsSectionDefaultBudget: { chars: defaultSection.length, tokens: tokens(defaultSection) },
  skillsSectionUnbudgeted: { chars: fullSection.length, tokens: tokens(fullSection) },
  fullInjectionBodies: { chars: injection.bodies.length, tokens: tokens(injection.bodies) },
  fullInjectionFiles: { chars: injection.files.length, tokens: tokens(injection.files) },
};
results["tokens/corpus-187"] = tokenFigures;
console.log(
  `skills section (default 8 000-char budget): ${tokenFigures.skillsSectionDefaultBudget.tokens} tokens; unbudgeted: ${tokenFigures.skillsSectionUnbudgeted.tokens} tokens`,
);
console.log(
  `full injection of the 187 corpus bodies: ${tokenFigures.fullInjectionBodies.tokens} tokens (whole files ${tokenFigures.fullInjectionFiles.tokens})`,
);

const out = join(import.meta.dirname, "results", "prompt-cache.json");
writeFileSync(out, JSON.stringify({ sizes, node: process.version, date: new Date().toISOString(), results }, null, 2));
console.log(`written ${out}`);
