import { ToolMessage } from "@langchain/core/messages";
import type { SkillsToolOutcome } from "../tools/skills-tool-context.js";

/** The ToolMessage stored for a skills tool call (a read_skill result carries the body marker as its artifact). */
export function outcomeMessage(outcome: SkillsToolOutcome, call: { id?: string; name: string }): ToolMessage {
  return new ToolMessage({
    content: outcome.content,
    tool_call_id: call.id ?? "",
    name: call.name,
    status: outcome.status ?? "success",
    ...(outcome.artifact ? { artifact: { skillgraph: outcome.artifact } } : {}),
  });
}

/** The error ToolMessage answering a blocked call (the tool never runs). */
export function blockedMessage(reason: string, call: { id?: string; name: string }): ToolMessage {
  return new ToolMessage({ content: reason, tool_call_id: call.id ?? "", name: call.name, status: "error" });
}
