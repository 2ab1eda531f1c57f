import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

describe("skillgraph add --json", () => {
  it("prints one object listing every skill added, and nothing else on stdout", async () => {
    const source = writeTree({
      "skills/csv/SKILL.md": skillMd("csv", "Clean CSV files."),
      "skills/csv/scripts/clean.py": "print('ok')\n",
      "skills/pdf/SKILL.md": skillMd("pdf", "Read PDFs."),
    });
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", "--json", join(source, "skills")], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({
      added: [
        {
          name: "csv",
          from: join(source, "skills/csv"),
          path: join(project, ".agents/skills/csv"),
          files: 2,
          skipped: [],
        },
        {
          name: "pdf",
          from: join(source, "skills/pdf"),
          path: join(project, ".agents/skills/pdf"),
          files: 1,
          skipped: [],
        },
      ],
    });
  });
});
