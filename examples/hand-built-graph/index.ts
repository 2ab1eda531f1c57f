// A hand-built LangGraph StateGraph with the SkillsInterceptor. The interceptor supplies the skills state channel,
// a model node (skills prompt + skills tools + loaded skill bodies) and a tool node that runs skills tools and
// ordinary tools alike. Run it against any OpenAI-compatible endpoint:
//   OPENAI_BASE_URL=http://localhost:11434/v1 SKILLGRAPH_MODEL=qwen3 node --conditions=@skillgraph/source --import tsx examples/hand-built-graph/index.ts
import { fileURLToPath, pathToFileURL } from "node:url";
import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createSkillsInterceptor } from "@skillgraph/langgraph";

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
  /** Where streamed answer tokens go. @default nowhere */
  onToken?: (text: string) => void;
}

/** What one run produced: the streamed answer text and the skills the agent loaded. */
export interface ExampleResult {
  answer: string;
  skillsLoaded: string[];
}

/** An ordinary tool the agent always has; the release-notes skill tells it what to do with the output. */
export const listMergedChanges = tool(
  async ({ since }: { since: string }) =>
    [
      `Merged since ${since}:`,
      "#41 feat(cli): add --json to list",
      "#42 fix(core): skip dot-folders when scanning",
      "#43 chore(ci): cache pnpm store",
      "#44 feat!: rename --dir to --source",
    ].join("\n"),
  {
    name: "list_merged_changes",
    description: "List the pull requests merged since a git tag.",
    schema: {
      type: "object",
      properties: { since: { type: "string", description: "a git tag, e.g. v1.2.0" } },
      required: ["since"],
    },
  },
);

/** Builds the graph: agent -> (tools -> agent)* -> end_turn -> END. */
export async function buildGraph(options: Pick<ExampleOptions, "baseURL" | "apiKey" | "model" | "skillsDir"> = {}) {
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(options.skillsDir ?? fileURLToPath(new URL("../skills", import.meta.url)))],
  });
  const model = new ChatOpenAI({
    model: options.model ?? process.env.SKILLGRAPH_MODEL ?? "gpt-4o-mini",
    apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? "not-needed",
    configuration: { baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL },
  });
  const skills = createSkillsInterceptor({ skills: registry });
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  return new StateGraph(State)
    .addNode(
      "agent",
      skills.callModel(model, { systemPrompt: "You are a release manager.", tools: [listMergedChanges] }),
    )
    .addNode("tools", skills.toolNode([listMergedChanges]))
    .addNode("end_turn", skills.endTurn())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, { tools: "tools", [END]: "end_turn" })
    .addEdge("tools", "agent")
    .addEdge("end_turn", END)
    .compile();
}

/** Streams one answer from the hand-built graph. */
export async function main(options: ExampleOptions = {}): Promise<ExampleResult> {
  const graph = await buildGraph(options);
  const stream = await graph.stream(
    {
      messages: [
        { role: "user", content: options.prompt ?? "Write the release notes for v1.3.0 (changes since v1.2.0)." },
      ],
    },
    { streamMode: ["messages", "custom"] },
  );
  const result: ExampleResult = { answer: "", skillsLoaded: [] };
  for await (const [mode, chunk] of stream) {
    if (mode === "messages") {
      const [message] = chunk as [unknown, unknown];
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
