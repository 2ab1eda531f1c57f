// A supervisor with two sub-agents, each seeing its own subset of one skill registry:
//   writer   -> release-notes, commit-message
//   reviewer -> sql-review
// The supervisor calls them as tools. Each sub-agent has its own agentId, so their loaded skills never mix.
//   OPENAI_BASE_URL=http://localhost:11434/v1 SKILLGRAPH_MODEL=qwen3 node --conditions=@skillgraph/source --import tsx examples/multi-agent/index.ts
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createSkillRegistry, skillsFromDirectory, type SkillCatalog } from "@skillgraph/core";
import { createSkillsMiddleware } from "@skillgraph/langgraph";
import { createAgent } from "langchain";

/** Where to reach the model and what to ask it. */
export interface ExampleOptions {
  /** OpenAI-compatible base URL ending in /v1. @default process.env.OPENAI_BASE_URL */
  baseURL?: string;
  /** @default process.env.OPENAI_API_KEY, or "not-needed" for local servers */
  apiKey?: string;
  /** @default process.env.SKILLGRAPH_MODEL ?? "gpt-4o-mini" */
  model?: string;
  prompt?: string;
  /** Folder of skills. @default examples/skills */
  skillsDir?: string;
  /** Where the supervisor's streamed answer tokens go. @default nowhere */
  onToken?: (text: string) => void;
}

/** What one run produced: the supervisor's answer and which agent loaded which skill. */
export interface ExampleResult {
  answer: string;
  skillsLoaded: Array<{ agent: string; skill: string }>;
}

/** The skills each sub-agent may see. */
export const SUB_AGENT_SKILLS = { writer: ["release-notes", "commit-message"], reviewer: ["sql-review"] } as const;

type Model = ChatOpenAI;

/** One specialist: a createAgent with its own skills subset, exposed to the supervisor as a tool. */
function subAgentTool(name: keyof typeof SUB_AGENT_SKILLS, description: string, model: Model, registry: SkillCatalog) {
  const agent = createAgent({
    model,
    name,
    systemPrompt: `You are the ${name}. Use your skills.`,
    middleware: [createSkillsMiddleware({ skills: registry, agentId: name, only: SUB_AGENT_SKILLS[name] })],
  });
  return tool(
    async ({ task }: { task: string }, config) => {
      // Passing config makes the sub-agent a subgraph of this run: its tokens and skill events reach the parent stream.
      const state = await agent.invoke({ messages: [{ role: "user", content: task }] }, config);
      return lastText(state.messages);
    },
    {
      name: `ask_${name}`,
      description,
      schema: {
        type: "object",
        properties: { task: { type: "string", description: "the complete task, with all the input it needs" } },
        required: ["task"],
      },
    },
  );
}

/** Builds the supervisor and its two sub-agents over one registry. */
export async function buildSupervisor(
  options: Pick<ExampleOptions, "baseURL" | "apiKey" | "model" | "skillsDir"> = {},
) {
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(options.skillsDir ?? fileURLToPath(new URL("../skills", import.meta.url)))],
  });
  const model = new ChatOpenAI({
    model: options.model ?? process.env.SKILLGRAPH_MODEL ?? "gpt-4o-mini",
    apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? "not-needed",
    configuration: { baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL },
  });
  return createAgent({
    model,
    name: "supervisor",
    systemPrompt:
      "You coordinate two specialists. Send writing tasks (release notes, commit messages) to ask_writer and SQL reviews to ask_reviewer, then summarise their answers.",
    tools: [
      subAgentTool("writer", "Ask the writer to draft release notes or a commit message.", model, registry),
      subAgentTool("reviewer", "Ask the reviewer to review SQL queries or migrations.", model, registry),
    ],
  });
}

/** Streams one supervisor answer; sub-agent skill loads are collected from the subgraph streams. */
export async function main(options: ExampleOptions = {}): Promise<ExampleResult> {
  const supervisor = await buildSupervisor(options);
  const stream = await supervisor.stream(
    {
      messages: [
        {
          role: "user",
          content: options.prompt ?? "Review `DELETE FROM orders` and write a commit message for the fix.",
        },
      ],
    },
    { streamMode: ["messages", "custom"], subgraphs: true },
  );
  const result: ExampleResult = { answer: "", skillsLoaded: [] };
  for await (const [namespace, mode, chunk] of stream as AsyncIterable<[string[], "messages" | "custom", unknown]>) {
    if (mode === "custom") {
      const event = (chunk as { skillgraph?: { type: string; skill?: string; agentId?: string } }).skillgraph;
      if (event?.type === "skill-loaded" && event.skill)
        result.skillsLoaded.push({ agent: event.agentId ?? "?", skill: event.skill });
    } else if (namespace.length === 0) {
      // Only the supervisor's own tokens form the answer; sub-agent tokens arrive with a non-empty namespace.
      const [message] = chunk as [unknown, unknown];
      if (AIMessageChunk.isInstance(message) && message.text) {
        result.answer += message.text;
        options.onToken?.(message.text);
      }
    }
  }
  return result;
}

function lastText(messages: BaseMessage[]): string {
  return messages.at(-1)?.text ?? "";
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main({ prompt: process.argv[2], onToken: (text) => process.stdout.write(text) });
  process.stdout.write(
    `\n\nskills loaded: ${result.skillsLoaded.map(({ agent, skill }) => `${agent}:${skill}`).join(", ") || "none"}\n`,
  );
}
