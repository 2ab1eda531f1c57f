import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { createSkillRegistry, skillsFromCode, skillsFromDirectory, type SkillRegistry } from "@skillgraph/core";

export { createSkillRegistry, skillsFromDirectory };
export type { SkillRegistry };

/** A small in-memory registry: pdf-tools (unlocks make_pdf, has a file), weather (owns get_forecast via skillTools), notes, git-helper. */
export function createTestRegistry(): Promise<SkillRegistry> {
  return createSkillRegistry({
    sources: [
      skillsFromCode([
        { name: "pdf-tools", description: "Create and edit PDF files.", body: "PDF BODY: call make_pdf with the title.", allowedTools: ["make_pdf"], files: { "references/api.md": "PDF API DOC", "scripts/run.sh": "echo hi" } },
        { name: "weather", description: "Look up weather forecasts for a city.", body: "WEATHER BODY: use get_forecast." },
        { name: "notes", description: "Take and organise notes.", body: "NOTES BODY" },
        { name: "git-helper", description: "Git workflows: commits, branches, rebases.", body: "GIT BODY", allowedTools: ["Bash(git:*)", "noop"] },
      ]),
    ],
  });
}

/** Test tools that count their runs. */
export function createTestTools() {
  const runs: Record<string, number> = { make_pdf: 0, get_forecast: 0, noop: 0 };
  const makePdf = tool(
    async ({ title }) => {
      runs.make_pdf!++;
      return `pdf '${title}' made`;
    },
    { name: "make_pdf", description: "Make a PDF.", schema: z.object({ title: z.string() }) },
  );
  const getForecast = tool(
    async ({ city }) => {
      runs.get_forecast!++;
      return `sunny in ${city}`;
    },
    { name: "get_forecast", description: "Forecast for a city.", schema: z.object({ city: z.string() }) },
  );
  const noop = tool(
    async () => {
      runs.noop!++;
      return "ok";
    },
    { name: "noop", description: "Does nothing.", schema: z.object({}) },
  );
  return { runs, makePdf, getForecast, noop };
}
