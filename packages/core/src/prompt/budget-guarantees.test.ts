import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { skillMetadata } from "./__fixtures__/skill-metadata.js";
import { escapeHtml } from "./escape-html.js";
import { renderSkillsPrompt } from "./render-skills-prompt.js";

const nameUnit = fc.constantFrom("a", "b", "c", "-", "1", "&", "<", '"', "'", "é", "😀");
const textUnit = fc.constantFrom("a", "b", " ", " ", "\n", "&", "<", ">", "é", "日", "😀", "x", "y");
const skills = fc.uniqueArray(
  fc.record({
    name: fc.string({ unit: nameUnit, minLength: 1, maxLength: 24 }),
    description: fc.string({ unit: textUnit, minLength: 1, maxLength: 400, size: "large" }),
  }),
  { selector: (skill) => skill.name, maxLength: 80, size: "medium" },
);
const format = fc.constantFrom<"xml" | "markdown">("xml", "markdown");
/** Below about 330 characters not even "N skills are available…" plus the preamble fits. */
const minimumBudget = 400;

describe("renderSkillsPrompt budget guarantees", () => {
  it("stays within any budget above the minimum and accounts for every skill in the text or the report", () => {
    fc.assert(
      fc.property(skills, format, fc.integer({ min: 0, max: 120 }), (input, layout, percent) => {
        const metadata = input.map((skill) => skillMetadata(skill.name, skill.description));
        // The budget is a fraction of the full text, so every degradation level is exercised.
        const fullLength = renderSkillsPrompt(metadata, {
          format: layout,
          budget: { maxChars: Number.POSITIVE_INFINITY },
        }).text.length;
        const maxChars = Math.max(minimumBudget, Math.floor((fullLength * percent) / 100));
        const { text, report } = renderSkillsPrompt(metadata, { format: layout, budget: { maxChars } });
        expect(report.overBudget).toBe(false);
        expect(text.length).toBeLessThanOrEqual(maxChars);
        expect(report.chars).toBe(text.length);

        const names = metadata.map((skill) => skill.name);
        const reported = new Set([...report.shortened, ...report.namesOnly, ...report.omitted]);
        const withDescription = report.level === "full" || report.level === "short-descriptions";
        if (withDescription) expect(report.namesOnly.length + report.omitted.length).toBe(0);
        else expect(reported.size).toBe(names.length);
        expect(report.listed).toBe(names.length - report.omitted.length);

        const line = (name: string, described: boolean) =>
          layout === "xml"
            ? described
              ? `<name>\n${escapeHtml(name)}\n</name>`
              : `\n${escapeHtml(name)}\n`
            : described
              ? `- **${name}**`
              : `\n- ${name}`;
        for (const name of names) {
          if (report.omitted.includes(name)) continue;
          expect(text).toContain(line(name, withDescription));
        }
        if (report.omitted.length > 0) {
          expect(text).toContain(`${report.omitted.length}`);
          expect(text).toContain("search_skills");
        }
      }),
      { numRuns: 400 },
    );
  });

  it("renders the same bytes and report for any order of the same skills", () => {
    fc.assert(
      fc.property(
        skills.chain((input) =>
          fc.tuple(
            fc.constant(input),
            fc.shuffledSubarray(input, { minLength: input.length, maxLength: input.length }),
          ),
        ),
        format,
        fc.integer({ min: minimumBudget, max: 20_000 }),
        ([input, shuffled], layout, maxChars) => {
          const render = (list: typeof input) =>
            renderSkillsPrompt(
              list.map((skill) => skillMetadata(skill.name, skill.description)),
              { format: layout, budget: { maxChars } },
            );
          expect(render(shuffled)).toEqual(render(input));
        },
      ),
      { numRuns: 200 },
    );
  });
});
