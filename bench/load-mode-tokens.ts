// Token cost of the load modes on a 20-turn scripted chat session: four tasks of five turns each (the first turn of a
// task reads its skill, the four follow-ups ask about the same task). Under `session` the skill stays loaded, so the
// follow-ups are answered directly; under `turn` and `once` the skill is gone by the follow-up, so a model that still
// wants the instructions must call read_skill again (scripted so), and "turn, no re-read" shows what answering without
// them costs. Counts o200k_base tokens of every request (system, tool names, messages as bench-peers serializes them)
// and the tokens after the common prefix with the previous request (what a provider's prompt cache cannot reuse).
// Run: node --conditions=@skillgraph/source --import tsx bench/load-mode-tokens.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { HumanMessage, MemorySaver } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { RecordingChatModel, type ScriptedReply } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import type { SkillsRuntimeOptions } from "../packages/langgraph/src/index.js";
import { buildAgent, peerLib } from "./support/interceptor-harness.js";
import { skillTree } from "./support/skill-trees.js";

const TASKS = 4;
const TURNS_PER_TASK = 5;
const lib = await peerLib();
const encoder = getEncoding("o200k_base");
const tokens = (text: string) => encoder.encode(text, [], []).length;
const { dir, manifest } = await skillTree(187);
const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
const skills = lib.pickSessionSkills(manifest, TASKS);
const bodies = new Map<string, string>();
for (const skill of skills) bodies.set(skill, (await registry.readBody(skill)).trim().slice(0, 120));

interface Variant {
  label: string;
  options: Partial<SkillsRuntimeOptions>;
  /** Whether a follow-up turn reads the skill again. */
  reread: boolean;
}

const variants: Variant[] = [
  { label: "session (default)", options: { loadMode: "session" }, reread: false },
  { label: "session, maxLoadedSkills 1", options: { loadMode: "session", maxLoadedSkills: 1 }, reread: false },
  { label: "turn, re-read on follow-ups", options: { loadMode: "turn" }, reread: true },
  { label: "turn, no re-read (skill lost)", options: { loadMode: "turn" }, reread: false },
  { label: "once, re-read on follow-ups", options: { loadMode: "once" }, reread: true },
];

async function run(variant: Variant, kind: "middleware" | "interceptor") {
  const script: ScriptedReply[] = [];
  const turns: string[] = [];
  for (const [task, skill] of skills.entries()) {
    for (let turn = 0; turn < TURNS_PER_TASK; turn++) {
      turns.push(
        turn === 0 ? `Task ${task + 1}: please help with ${skill}.` : `Follow-up ${turn} on task ${task + 1}.`,
      );
      if (turn === 0 || variant.reread) script.push({ toolCalls: [{ name: "read_skill", args: { name: skill } }] });
      script.push({ content: `Answer ${task + 1}.${turn} following the ${skill} instructions.` });
    }
  }
  const model = new RecordingChatModel(script);
  const agent = buildAgent(kind, model, { skills: registry, ...variant.options }, new MemorySaver());
  const config = { configurable: { thread_id: "load-modes" } };
  for (const text of turns) await agent.invoke({ messages: [new HumanMessage(text)] }, config);
  const serialized = model.calls.map((call) => lib.serializeRequest(call));
  let total = 0;
  let uncached = 0;
  serialized.forEach((text, index) => {
    total += tokens(text);
    const previous = serialized[index - 1];
    let common = 0;
    if (previous) while (common < previous.length && previous.charCodeAt(common) === text.charCodeAt(common)) common++;
    uncached += tokens(text.slice(common));
  });
  // A follow-up request "has the instructions" when its messages or system text hold the start of the skill's body.
  let followUpsWithBody = 0;
  for (const call of model.calls) {
    const human = [...call.messages].reverse().find((message) => message.getType() === "human")?.text ?? "";
    if (!human.startsWith("Follow-up")) continue;
    const skill = skills[Number(/task (\d+)/.exec(human)?.[1] ?? 1) - 1]!;
    const probe = bodies.get(skill)!;
    if (call.system.includes(probe) || call.messages.some((message) => message.text.includes(probe)))
      followUpsWithBody++;
  }
  return { requests: model.calls.length, total, uncached, followUpsWithBody };
}

const results: Record<string, unknown> = {};
console.log(`skills: ${skills.join(", ")}`);
for (const kind of ["middleware", "interceptor"] as const) {
  for (const variant of variants) {
    const figures = await run(variant, kind);
    results[`${kind}/${variant.label}`] = figures;
    console.log(
      `${kind.padEnd(11)} ${variant.label.padEnd(30)} requests ${String(figures.requests).padStart(3)}  input tokens ${String(figures.total).padStart(7)}  not in cached prefix ${String(figures.uncached).padStart(6)}  follow-up requests with the instructions ${figures.followUpsWithBody}`,
    );
  }
}
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
const out = join(import.meta.dirname, "results", "load-mode-tokens.json");
writeFileSync(out, JSON.stringify({ skills, node: process.version, date: new Date().toISOString(), results }, null, 2));
console.log(`written ${out}`);
