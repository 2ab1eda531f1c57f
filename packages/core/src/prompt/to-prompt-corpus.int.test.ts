import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { skillMetadata } from "./__fixtures__/skill-metadata.js";
import { renderSkillsPrompt } from "./render-skills-prompt.js";
import { toPrompt } from "./to-prompt.js";

import { CORPUS_AVAILABLE, CORPUS_DIR } from "../../../../test/support/shared-paths.js";

const corpus = `${CORPUS_DIR}/`;
const results = (
  CORPUS_AVAILABLE ? JSON.parse(readFileSync(`${corpus}skills-ref-results.json`, "utf8")) : {}
) as Record<string, { properties?: { name: string; description: string } }>;
/** name/description exactly as the reference's read-properties returned them, for the 173 readable corpus skills. */
const entries = Object.entries(results).flatMap(([dir, result]) =>
  result.properties
    ? [
        {
          name: result.properties.name,
          description: result.properties.description,
          location: `${corpus}${dir}/SKILL.md`,
        },
      ]
    : [],
);
const python = spawnSync("python3", ["--version"]).status === 0;

/** The reference's to_prompt loop with Python's own html.escape, fed the same entries. */
const referenceScript = `
import html, json, sys
skills = json.load(sys.stdin)
lines = ["<available_skills>"]
for s in skills:
    lines += ["<skill>", "<name>", html.escape(s["name"]), "</name>", "<description>", html.escape(s["description"]), "</description>", "<location>", s["location"], "</location>", "</skill>"]
lines.append("</available_skills>")
sys.stdout.write("\\n".join(lines) if skills else "<available_skills>\\n</available_skills>")
`;

describe.skipIf(!CORPUS_AVAILABLE)("toPrompt on the real corpus (skipped: ../shared/corpus not found)", () => {
  it.skipIf(!python)(
    "matches Python's html.escape output byte for byte on all 173 readable corpus skills (needs python3)",
    () => {
      expect(entries.length).toBe(173);
      const run = spawnSync("python3", ["-c", referenceScript], { input: JSON.stringify(entries), encoding: "utf8" });
      expect(run.status).toBe(0);
      expect(toPrompt(entries)).toBe(run.stdout);
    },
  );

  it("fits the whole corpus into the default budget, accounting for every skill", () => {
    const skills = entries.map((entry) => skillMetadata(entry.name, entry.description, entry.location));
    const { text, report } = renderSkillsPrompt(skills);
    expect(text.length).toBeLessThanOrEqual(8000);
    expect(report.overBudget).toBe(false);
    expect(report.level).not.toBe("full");
    expect(report.namesOnly.length + report.omitted.length).toBe(173);
  });
});
