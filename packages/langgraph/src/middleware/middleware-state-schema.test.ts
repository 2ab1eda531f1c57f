import { afterEach, describe, expect, it } from "vitest";
import {
  AIMessage,
  createAgent,
  createMiddleware,
  HumanMessage,
  MemorySaver,
  tool,
  z,
} from "../__fixtures__/langchain.js";
import { RecordingChatModel } from "../__fixtures__/recording-chat-model.js";
import { createTestRegistry } from "../__fixtures__/test-skills.js";
import { SkillsStateSchema } from "../state/skills-state-schema.js";
import { createSkillsMiddleware } from "./create-skills-middleware.js";

const noop = tool(async () => "ok", { name: "noop", description: "Does nothing.", schema: z.object({}) });
const CALLS = 12;

/** Counts the functions built from source text (`new Function`) while it is installed: what zod v4's parser compiler does. */
function countCompiledFunctions() {
  const original = globalThis.Function;
  const counter = { built: 0, restore: () => void (globalThis.Function = original) };
  globalThis.Function = new Proxy(original, {
    construct(target, args, newTarget) {
      counter.built++;
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
  return counter;
}

let counter: ReturnType<typeof countCompiledFunctions> | undefined;
afterEach(() => counter?.restore());

/**
 * Functions compiled over the model calls after the first (a 12-call tool loop on one thread, with a MemorySaver).
 * The model repeats its reply and call ids as the worst endpoints do; `uniqueIds` gives each reply its own, for an
 * agent without the skills runtime (which settles repeated ids), whose replies would otherwise replace each other.
 */
async function compiledPerLaterCall(
  middleware: ReturnType<typeof createMiddleware>,
  uniqueIds = false,
): Promise<number> {
  const script = [
    ...Array.from({ length: CALLS - 1 }, () => ({ toolCalls: [{ name: "noop", args: {} }] })),
    { content: "done" },
  ];
  const model = new RecordingChatModel(script);
  const agent = createAgent({ model, tools: [noop], middleware: [middleware], checkpointer: new MemorySaver() });
  const generate = model._generate.bind(model);
  model._generate = async (...args) => {
    if (model.calls.length === 1) counter = countCompiledFunctions(); // after the first call: every parser it needs once is built
    const result = await generate(...args);
    if (!uniqueIds) return result;
    const reply = result.generations[0]!.message as AIMessage;
    const step = model.calls.length;
    result.generations[0]!.message = new AIMessage({
      id: `reply-${step}`,
      content: reply.content,
      tool_calls: (reply.tool_calls ?? []).map((call, index) => ({ ...call, id: `call-${step}-${index}` })),
    });
    return result;
  };
  await agent.invoke({ messages: [new HumanMessage("go")] }, { configurable: { thread_id: "t" } });
  expect(model.calls).toHaveLength(CALLS);
  const built = counter!.built;
  counter!.restore();
  return built / (CALLS - 1);
}

describe("the skills middleware's state schema", () => {
  it("costs createAgent no compiled parser per model call (a StateSchema middleware costs about one)", async () => {
    const registry = await createTestRegistry();
    expect(await compiledPerLaterCall(createSkillsMiddleware({ skills: registry }))).toBe(0);
    // the control: what createAgent does for a middleware that declares the same channel as a StateSchema
    const plain = createMiddleware({
      name: "StateSchemaMiddleware",
      stateSchema: SkillsStateSchema,
      wrapModelCall: (request, handler) => handler(request),
    });
    expect(await compiledPerLaterCall(plain, true)).toBeGreaterThan(0.5);
  });
});
