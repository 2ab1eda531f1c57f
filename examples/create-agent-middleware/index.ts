// createAgent + createSkillsMiddleware: the agent sees a list of skills, loads one with read_skill when a task matches,
// and reads the skill's reference files with read_skill_file. Run it against any OpenAI-compatible endpoint:
//   OPENAI_BASE_URL=http://localhost:11434/v1 SKILLGRAPH_MODEL=qwen3 node --conditions=@skillgraph/source --import tsx examples/create-agent-middleware/index.ts "Review: SELECT * FROM users WHERE lower(email) = $1"
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
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
  /** The user's message. */
  prompt?: string;
  /** Folder of skills. @default examples/skills */
  skillsDir?: string;
  /** Where streamed answer tokens go. @default nowhere */
  onToken?: (text: string) => void;
}

/** What one run produced: the streamed answer text and the skills the agent loaded. */
export interface ExampleResult {
  answer: string;
  skillsLoaded: string[];
}

/** Builds the agent and streams one answer. */
export async function main(options: ExampleOptions = {}): Promise<ExampleResult> {
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(options.skillsDir ?? fileURLToPath(new URL("../skills", import.meta.url)))],
  });
  const model = new ChatOpenAI({
    model: options.model ?? process.env.SKILLGRAPH_MODEL ?? "gpt-4o-mini",
    apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? "not-needed",
    configuration: { baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL },
  });
  const agent = createAgent({
    model,
    systemPrompt: "You are a senior engineer. Use the matching skill for every task.",
    middleware: [createSkillsMiddleware({ skills: registry })],
  });

  // Stream, never invoke: tokens arrive on "messages", skill events ({ skillgraph: event }) on "custom".
  const stream = await agent.stream(
    {
      messages: [
        { role: "user", content: options.prompt ?? "Review this query: SELECT * FROM users WHERE lower(email) = $1" },
      ],
    },
    { streamMode: ["messages", "custom"] },
  );
  const result: ExampleResult = { answer: "", skillsLoaded: [] };
  for await (const [mode, chunk] of stream) {
    if (mode === "messages") {
      const [message] = chunk;
      if (AIMessageChunk.isInstance(message) && message.text) {
        result.answer += message.text;
        options.onToken?.(message.text);
      }
    } else if (mode === "custom") {
      const event = (chunk as { skillgraph?: { type: string; skill?: string } }).skillgraph;
      if (event?.type === "skill-loaded" && event.skill) result.skillsLoaded.push(event.skill);
    }
  }
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main({ prompt: process.argv[2], onToken: (text) => process.stdout.write(text) });
  process.stdout.write(`\n\nskills loaded: ${result.skillsLoaded.join(", ") || "none"}\n`);
}
