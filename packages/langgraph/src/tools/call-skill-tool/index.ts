import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { runsInInterceptor } from "../skill-name-schema.js";

/** Name of the dispatcher of the `dispatcher` exposure mode. */
export const CALL_SKILL_TOOL = "call_skill_tool";

/** The model-facing dispatcher: one fixed tool through which a loaded skill's tools are called (keeps the tool list byte-stable). */
export function buildCallSkillTool(): StructuredToolInterface {
  return tool(runsInInterceptor(CALL_SKILL_TOOL), {
    name: CALL_SKILL_TOOL,
    description:
      "Call a tool unlocked by a loaded skill. read_skill lists each skill's tools with their argument schemas.",
    schema: z.object({
      tool: z.string().describe("Name of the skill tool"),
      arguments: z.record(z.string(), z.unknown()).describe("Arguments, matching the tool's schema").optional(),
    }),
  });
}

/** The inner call a dispatcher call stands for, or an explanation of what is wrong with it. */
export function parseDispatch(args: unknown): { tool: string; args: Record<string, unknown> } | { error: string } {
  const record = (args ?? {}) as Record<string, unknown>;
  const name =
    typeof record.tool === "string" ? record.tool.trim() : typeof record.name === "string" ? record.name.trim() : "";
  if (!name) return { error: `${CALL_SKILL_TOOL} needs {"tool": "<tool name>", "arguments": {...}}.` };
  let inner = record.arguments ?? record.args ?? {};
  if (typeof inner === "string") {
    try {
      inner = JSON.parse(inner);
    } catch {
      return { error: `${CALL_SKILL_TOOL}: 'arguments' must be a JSON object.` };
    }
  }
  if (typeof inner !== "object" || inner === null || Array.isArray(inner))
    return { error: `${CALL_SKILL_TOOL}: 'arguments' must be an object.` };
  return { tool: name, args: inner as Record<string, unknown> };
}
