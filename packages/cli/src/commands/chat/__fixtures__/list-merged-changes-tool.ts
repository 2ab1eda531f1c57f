import { tool } from "@langchain/core/tools";

/** Merged pull requests the fixture tool reports, one per line. */
export const MERGED_CHANGES = ["#41 feat(cli): add --json to list", "#42 fix(core): skip dot-folders when scanning", "#44 feat!: rename --dir to --source"];

/** A skill-owned tool for tests: lists merged pull requests; records every call in `calls`. */
export function createListMergedChangesTool() {
  const calls: Array<{ since: string }> = [];
  const listMergedChanges = tool(
    async ({ since }: { since: string }) => {
      calls.push({ since });
      return [`Merged since ${since}:`, ...MERGED_CHANGES].join("\n");
    },
    {
      name: "list_merged_changes",
      description: "List the pull requests merged since a git tag.",
      schema: { type: "object", properties: { since: { type: "string" } }, required: ["since"] },
    },
  );
  return { tool: listMergedChanges, calls };
}
