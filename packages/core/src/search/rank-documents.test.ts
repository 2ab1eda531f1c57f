import { describe, expect, it } from "vitest";
import { createSearchIndex } from "./search-index.js";

describe("query words no skill knows", () => {
  const index = createSearchIndex([
    {
      name: "seaborn",
      description: "Statistical charts in Python with seaborn: box plots, violin plots, heatmaps.",
      body: "# Seaborn\nUse `sns.boxplot` for box plots.",
      path: "/skills/seaborn/SKILL.md",
    },
    { name: "slide-deck", description: "Build a slide deck.", body: "# Slides", path: "/skills/slide-deck/SKILL.md" },
  ]);
  const top = (query: string) => index.search(query)[0]?.score ?? 0;

  it("lower the score: an English word fully, a word in another script (a language the skills lack) by half", () => {
    const known = top("seaborn box plot");
    const english = top("seaborn box plot quokka");
    const otherScript = top("seaborn box plot 部门");
    expect(english).toBeLessThan(otherScript);
    expect(otherScript).toBeLessThan(known);
  });

  it("do not change which skill ranks first", () => {
    expect(index.search("用 seaborn 画一个按部门分组的箱线图")[0]?.name).toBe("seaborn");
  });
});
