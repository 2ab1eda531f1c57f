import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { skillMetadata } from "./__fixtures__/skill-metadata.js";
import { renderSkillsPrompt } from "./render-skills-prompt.js";
import { toPrompt } from "./to-prompt.js";

const words = (count: number, seed: string) => Array.from({ length: count }, (_, index) => `${seed}${index}`).join(" ");
/** 30 skills with ~200-character descriptions: about 10 000 characters in full XML. */
const many = Array.from({ length: 30 }, (_, index) =>
  skillMetadata(`skill-${String(index).padStart(2, "0")}`, words(40, "w")),
);
const charsOf = (options: Parameters<typeof renderSkillsPrompt>[1]) => renderSkillsPrompt(many, options).text.length;

describe("renderSkillsPrompt: layouts", () => {
  it("renders the reference XML block (sorted by name) after the preamble when everything fits", () => {
    const skills = [skillMetadata("zeta", "Z & co."), skillMetadata("alpha", `Says "hi"`)];
    const { text, report } = renderSkillsPrompt(skills);
    const block = toPrompt([
      { name: "alpha", description: `Says "hi"`, location: "/skills/alpha/SKILL.md" },
      { name: "zeta", description: "Z & co.", location: "/skills/zeta/SKILL.md" },
    ]);
    expect(text).toBe(
      `Skills are packaged instructions for specialised tasks. When a task matches a skill's description, call read_skill with the skill's name and follow the instructions it returns.\n\n${block}`,
    );
    expect(report).toEqual({
      level: "full",
      total: 2,
      listed: 2,
      shortened: [],
      namesOnly: [],
      omitted: [],
      chars: text.length,
      overBudget: false,
    });
  });

  it("omits the preamble with preamble: false, so the text is exactly toPrompt's for sorted input", () => {
    const skills = [skillMetadata("b", "B"), skillMetadata("a", "A")];
    expect(renderSkillsPrompt(skills, { preamble: false }).text).toBe(
      toPrompt([
        { name: "a", description: "A", location: "/skills/a/SKILL.md" },
        { name: "b", description: "B", location: "/skills/b/SKILL.md" },
      ]),
    );
  });

  it("names the configured read tool in the default preamble and uses a custom preamble verbatim", () => {
    expect(renderSkillsPrompt([skillMetadata("a", "A")], { readToolName: "load_skill" }).text).toContain(
      "call load_skill with the skill's name",
    );
    expect(
      renderSkillsPrompt([skillMetadata("a", "A")], { preamble: "Use skills." }).text.startsWith(
        "Use skills.\n\n<available_skills>",
      ),
    ).toBe(true);
  });

  it("leaves out <location> for code-defined skills and when includeLocation is false", () => {
    expect(renderSkillsPrompt([skillMetadata("a", "A", "")], { preamble: false }).text).toBe(
      "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nA\n</description>\n</skill>\n</available_skills>",
    );
    expect(renderSkillsPrompt([skillMetadata("a", "A")], { includeLocation: false }).text).not.toContain("<location>");
  });

  it("renders markdown as one bullet per skill with the description on one line", () => {
    const { text } = renderSkillsPrompt([skillMetadata("pdf", "Read PDFs.\nAlso forms.")], {
      format: "markdown",
      preamble: false,
    });
    expect(text).toBe("## Available skills\n- **pdf** (`/skills/pdf/SKILL.md`): Read PDFs. Also forms.");
  });

  it("fills a string template's placeholders once, raw, with header and footer around the entries", () => {
    const { text } = renderSkillsPrompt([skillMetadata("b", "has {{name}} & <b>"), skillMetadata("a", "A")], {
      format: { header: "SKILLS:", skill: "* {{name}} = {{ description }} @ {{location}}", footer: "END" },
      preamble: false,
    });
    expect(text).toBe("SKILLS:\n* a = A @ /skills/a/SKILL.md\n* b = has {{name}} & <b> @ /skills/b/SKILL.md\nEND");
  });

  it("calls a function template with each entry", () => {
    const { text } = renderSkillsPrompt([skillMetadata("a", "A")], {
      format: { skill: (entry) => `${entry.name.toUpperCase()}:${entry.description}` },
      preamble: false,
    });
    expect(text).toBe("A:A");
  });

  it("renders nothing for an empty list", () => {
    expect(renderSkillsPrompt([])).toEqual({
      text: "",
      report: {
        level: "full",
        total: 0,
        listed: 0,
        shortened: [],
        namesOnly: [],
        omitted: [],
        chars: 0,
        overBudget: false,
      },
    });
  });
});

describe("renderSkillsPrompt: degrading to fit the budget", () => {
  it("keeps full descriptions when the list fits the default 8000 characters, and degrades when it does not", () => {
    expect(renderSkillsPrompt(many.slice(0, 10)).report.level).toBe("full");
    expect(charsOf({ budget: { maxChars: Number.POSITIVE_INFINITY } })).toBeGreaterThan(8000);
    expect(renderSkillsPrompt(many).report.level).toBe("short-descriptions");
  });

  it("shortens descriptions on word boundaries with an ellipsis and reports which ones", () => {
    const skills = [...many.slice(0, 5), skillMetadata("tiny", "Fits.")];
    const fullLength = renderSkillsPrompt(skills, { budget: { maxChars: Number.POSITIVE_INFINITY } }).text.length;
    const { text, report } = renderSkillsPrompt(skills, { budget: { maxChars: fullLength - 200 } });
    expect(report.level).toBe("short-descriptions");
    expect(report.shortened).toEqual(many.slice(0, 5).map((skill) => skill.name));
    expect(text.length).toBeLessThanOrEqual(fullLength - 200);
    expect(text).toMatch(/\nw0 w1 w2 [w0-9 ]*w\d+…\n/);
    expect(text).toContain("\nFits.\n");
  });

  it("lists names only, with a pointer to the search tool, when even the shortest descriptions do not fit", () => {
    const { text, report } = renderSkillsPrompt(many, { budget: { maxChars: 1200 }, searchToolName: "find_skill" });
    expect(report.level).toBe("names-only");
    expect(report.namesOnly).toEqual(many.map((skill) => skill.name));
    expect(report.listed).toBe(30);
    expect(text).toContain("<available_skill_names>\nskill-00\nskill-01\n");
    expect(text).toContain("call find_skill with a description of the task");
    expect(text.length).toBeLessThanOrEqual(1200);
  });

  it("lists as many names as fit and counts the rest when names alone do not fit", () => {
    const { text, report } = renderSkillsPrompt(many, { budget: { maxChars: 500 } });
    expect(report.level).toBe("count-only");
    expect(report.listed).toBeGreaterThan(0);
    expect(report.listed).toBeLessThan(30);
    expect(report.namesOnly).toEqual(many.slice(0, report.listed).map((skill) => skill.name));
    expect(report.omitted).toEqual(many.slice(report.listed).map((skill) => skill.name));
    expect(text).toContain(`${30 - report.listed} more skills are not listed here: call search_skills`);
    expect(text.length).toBeLessThanOrEqual(500);
    // One more name would not have fitted: the count is the largest that fits.
    expect(report.listed).toBe(largestThatFits(500));
  });

  it("counts all skills without names when no name fits, and flags overBudget when even that does not fit", () => {
    const fitting = renderSkillsPrompt(many, { budget: { maxChars: 330 } });
    expect(fitting.report).toMatchObject({ level: "count-only", listed: 0, overBudget: false });
    expect(fitting.text).toContain("30 skills are available but not listed here: call search_skills");
    const tooSmall = renderSkillsPrompt(many, { budget: { maxChars: 50 } });
    expect(tooSmall.report).toMatchObject({ level: "count-only", listed: 0, overBudget: true });
    expect(tooSmall.report.omitted.length).toBe(30);
  });

  it("counts tokens with the supplied function and respects maxTokens", () => {
    const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const { text, report } = renderSkillsPrompt(many, { budget: { maxTokens: 700, countTokens } });
    expect(report.tokens).toBe(countTokens(text));
    expect(report.tokens).toBeLessThanOrEqual(700);
    expect(report.level).not.toBe("full");
  });

  it("estimates tokens as a quarter of the characters when no counter is given", () => {
    const { text, report } = renderSkillsPrompt(many, { budget: { maxTokens: 1000 } });
    expect(report.tokens).toBe(Math.ceil(text.length / 4));
    expect(report.tokens).toBeLessThanOrEqual(1000);
  });

  it("renders the same bytes for any input order", () => {
    const shuffled = [...many].reverse();
    shuffled.push(shuffled.shift() as (typeof many)[number]);
    for (const maxChars of [100_000, 6000, 1200, 500]) {
      expect(renderSkillsPrompt(shuffled, { budget: { maxChars } }).text).toBe(
        renderSkillsPrompt(many, { budget: { maxChars } }).text,
      );
    }
  });

  it("throws InvalidOptionsError naming the option for a bad format, budget, tool name, template or minimum", () => {
    const cases: Array<[Parameters<typeof renderSkillsPrompt>[1], string]> = [
      [{ format: "html" as "xml" }, "format"],
      [{ budget: { maxChars: 0 } }, "budget.maxChars"],
      [{ budget: { maxTokens: Number.NaN } }, "budget.maxTokens"],
      [{ budget: { countTokens: 3 as unknown as () => number } }, "budget.countTokens"],
      [{ searchToolName: " " }, "searchToolName"],
      [{ format: { skill: "{{name}} {{title}}" } }, "format.skill"],
      [{ minDescriptionChars: 2 }, "minDescriptionChars"],
    ];
    for (const [options, option] of cases) {
      let caught: unknown;
      try {
        renderSkillsPrompt(many, options);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidOptionsError);
      expect((caught as InvalidOptionsError).option).toBe(option);
    }
  });
});

/** Independent recount: the largest number of names whose count-only text fits `maxChars`. */
function largestThatFits(maxChars: number): number {
  const tried = Array.from({ length: many.length }, (_, listed) => listed).filter((listed) => {
    const names = many.slice(0, listed).map((skill) => skill.name);
    const rest = many.length - listed;
    const preamble = renderSkillsPrompt(many.slice(0, 1)).text.split("\n\n")[0] as string;
    const block = listed === 0 ? [] : [["<available_skill_names>", ...names, "</available_skill_names>"].join("\n")];
    const note =
      listed === 0
        ? `${rest} skills are available but not listed here: call search_skills with a description of the task to find the right skill.`
        : `${rest} more skills are not listed here: call search_skills with a description of the task to find the right skill.`;
    return [preamble, ...block, note].join("\n\n").length <= maxChars;
  });
  return Math.max(...tried);
}

describe("renderSkillsPrompt: small lists", () => {
  it("prefers a shortened description over names only for a single skill when both would fit", () => {
    const skill = skillMetadata("solo", words(60, "word"), "");
    const full = renderSkillsPrompt([skill], { preamble: false, budget: { maxChars: Number.POSITIVE_INFINITY } }).text
      .length;
    const { report, text } = renderSkillsPrompt([skill], { preamble: false, budget: { maxChars: 160 } });
    expect(full).toBeGreaterThan(160);
    expect(report.level).toBe("short-descriptions");
    expect(text.length).toBeLessThanOrEqual(160);
  });
});
