// What both graphs of this deployment share: the skills (one registry per server process), the model and the shell hook.
import { fileURLToPath } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { createShellHook } from "@skillgraph/shell";

/** Skills folder: SKILLGRAPH_SKILLS_DIR, else the repository's examples/skills. */
export const skillsDir = process.env.SKILLGRAPH_SKILLS_DIR ?? fileURLToPath(new URL("../../skills", import.meta.url));

/** Threads on a server live long: a skill read stays loaded for the thread (not only the turn) until evicted or drifted. */
export const loadMode = "session" as const;

/** Loaded once when the server imports the graph modules; `registry.reload()` picks up edits. */
export const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });

/** Any OpenAI-compatible endpoint (OPENAI_BASE_URL / OPENAI_API_KEY, model SKILLGRAPH_MODEL). */
export function createModel() {
  return new ChatOpenAI({
    model: process.env.SKILLGRAPH_MODEL ?? "gpt-4o-mini",
    apiKey: process.env.OPENAI_API_KEY ?? "not-needed",
    configuration: { baseURL: process.env.OPENAI_BASE_URL },
  });
}

/**
 * Skill scripts and commands (bubblewrap when available). `shell` is always offered; any `touch` or `rm` needs a human's
 * approval, asked with LangGraph `interrupt()` and answered with `Command({ resume: { approved: true } })`.
 * Workspaces (one per thread) live under SKILLGRAPH_WORKSPACES, else a temp folder.
 */
export const shellHook = createShellHook({
  skills: registry,
  alwaysVisible: ["shell"],
  requireApproval: ["touch", "rm"],
  ...(process.env.SKILLGRAPH_WORKSPACES ? { workspaceRoot: process.env.SKILLGRAPH_WORKSPACES } : {}),
});
