import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { ToolExposure } from "../options/skills-runtime-options.js";
import { CALL_SKILL_TOOL } from "../tools/call-skill-tool/index.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** In dispatcher mode, the note after a skill body listing its tools and their JSON schemas; otherwise "". */
export function dispatcherNote(toolExposure: ToolExposure, skill: string, index: SkillToolIndex): string {
  if (toolExposure !== "dispatcher") return "";
  const tools = index.owned.get(skill) ?? [];
  if (tools.length === 0) return "";
  const lines = tools.map((tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON schema): ${JSON.stringify(schemaOf(tool))}`);
  return `\nCall these with ${CALL_SKILL_TOOL}({"tool": "<name>", "arguments": {...}}):\n${lines.join("\n")}`;
}

function schemaOf(tool: StructuredToolInterface): unknown {
  try {
    return toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    return {};
  }
}
