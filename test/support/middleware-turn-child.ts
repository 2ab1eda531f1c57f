// One user turn of a createAgent + skills middleware (+ shell hook under bubblewrap) agent, in a process of its own:
// the model over HTTP (ChatOpenAI against the scripted server), the thread in the checkpointer at <checkpointUrl>.
// Usage: node --import tsx test/support/middleware-turn-child.ts <checkpointUrl> <modelBaseUrl> <threadId> <prompt>
// stdout: the final answer, one line of JSON ({ "answer": ... }).
import { HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { closeCheckpointer, createCheckpointer } from "../../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory } from "../../packages/core/src/index.js";
import { createSkillsMiddleware } from "../../packages/langgraph/src/index.js";
import { createShellHook } from "../../packages/shell/src/index.js";
import { REPO_ROOT } from "./shared-paths.js";

const [checkpointUrl, modelBaseUrl, threadId, prompt] = process.argv.slice(2);
if (!checkpointUrl || !modelBaseUrl || !threadId || !prompt) {
  process.stderr.write("usage: middleware-turn-child.ts <checkpointUrl> <modelBaseUrl> <threadId> <prompt>\n");
  process.exit(2);
}

const checkpointer = await createCheckpointer(checkpointUrl);
const registry = await createSkillRegistry({ sources: [skillsFromDirectory(`${REPO_ROOT}/examples/skills`)] });
const hook = createShellHook({ skills: registry, executor: "bubblewrap" });
const agent = createAgent({
  model: new ChatOpenAI({ model: "scripted", apiKey: "test", configuration: { baseURL: modelBaseUrl }, maxRetries: 0 }),
  tools: [],
  middleware: [createSkillsMiddleware({ skills: registry, hooks: [hook] })],
  checkpointer,
});
try {
  const result = (await agent.invoke(
    { messages: [new HumanMessage(prompt)] },
    {
      configurable: { thread_id: threadId },
    },
  )) as { messages: Array<{ content: unknown }> };
  process.stdout.write(`${JSON.stringify({ answer: result.messages.at(-1)?.content })}\n`);
} finally {
  await hook.dispose?.();
  await closeCheckpointer(checkpointer);
}
