// Rewrites the generated help blocks in docs/cli.md and docs/chat.md from the commands' help:
//   node --conditions=@skillgraph/source --import tsx packages/cli/src/docs/update-help-docs.ts
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withCurrentHelp } from "./help-docs.js";

for (const doc of ["docs/cli.md", "docs/chat.md"]) {
  const file = fileURLToPath(new URL(`../../../../${doc}`, import.meta.url));
  const before = readFileSync(file, "utf8");
  const after = await withCurrentHelp(before);
  if (after !== before) writeFileSync(file, after);
  process.stderr.write(`${doc}: ${after === before ? "up to date" : "updated"}\n`);
}
