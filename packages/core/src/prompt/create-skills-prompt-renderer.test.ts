import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { skillMetadata } from "./__fixtures__/skill-metadata.js";
import { createSkillsPromptRenderer } from "./create-skills-prompt-renderer.js";

const skills = Array.from({ length: 50 }, (_, index) =>
  skillMetadata(`s${index}`, `Does task number ${index} for the user when asked.`),
);

describe("createSkillsPromptRenderer", () => {
  it("checks options once, when the renderer is created", () => {
    expect(() => createSkillsPromptRenderer({ budget: { maxChars: -5 } })).toThrow(InvalidOptionsError);
  });

  it("returns the memoised result for a repeated cache key and renders again for a new key", () => {
    let counted = 0;
    const render = createSkillsPromptRenderer({
      budget: { maxTokens: 100_000, countTokens: (text) => (counted++, text.length) },
    });
    const first = render(skills, "v1");
    const callsAfterFirst = counted;
    expect(render([...skills], "v1")).toBe(first);
    expect(counted).toBe(callsAfterFirst);
    const next = render(skills.slice(0, 10), "v2");
    expect(next).not.toBe(first);
    expect(next.report.total).toBe(10);
  });

  it("memoises by the identity of the skills array when no key is given", () => {
    const render = createSkillsPromptRenderer();
    const list = skills.slice(0, 5);
    expect(render(list)).toBe(render(list));
    expect(render(skills.slice(0, 5))).not.toBe(render(list));
  });

  it("returns frozen results so a shared cached report cannot be changed by one caller", () => {
    const { report } = createSkillsPromptRenderer({ budget: { maxChars: 400 } })(skills, "k");
    expect(Object.isFrozen(report)).toBe(true);
    expect(() => (report.omitted as string[]).push("x")).toThrow(TypeError);
  });

  it("fits a maxTokens budget measured with a real tokenizer (js-tiktoken cl100k_base)", () => {
    const encoding = getEncoding("cl100k_base");
    const countTokens = (text: string) => encoding.encode(text).length;
    const render = createSkillsPromptRenderer({ budget: { maxTokens: 300, countTokens } });
    const { text, report } = render(skills);
    expect(report.tokens).toBe(countTokens(text));
    expect(report.tokens).toBeLessThanOrEqual(300);
    expect(report.level).not.toBe("full");
  });
});
