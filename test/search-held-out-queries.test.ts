// HELD-OUT SET E3: test/fixtures/search-held-out-queries-e3.json (175 requests: 125 real in five styles, 50 off-topic
// sharing the corpus's vocabulary) was written from the corpus's SKILL.md files alone by a writer who never saw the
// search code (sha256 8604465b… of the file as written), kept unopened while the confidence rule was chosen, and
// scored ONCE after it was final (docs/design/search-tuning.md). Nothing was tuned on it; any change made while
// looking at its results turns it into a development set, and docs/design/search-tuning.md must say so.
// The bounds are sanity floors well below that single score, so a regression fails but noise does not; the
// figures that count are the ones recorded at the single scoring.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import { readQuerySet } from "../bench/support/query-sets.js";
import { evaluateStyles } from "../bench/support/style-eval.js";
import { CORPUS_AVAILABLE, REPO_ROOT } from "./support/shared-paths.js";

describe.skipIf(!CORPUS_AVAILABLE)("search on held-out set E3 (never tuned on; corpus required)", () => {
  it("reports each style's figures, above sanity floors", () => {
    const corpus = loadCorpus();
    const dirByPath = new Map(corpus.map((skill) => [skill.document.path, skill.dir]));
    const index = createSearchIndex(corpus.map((skill) => skill.document));
    const set = readQuerySet("E3", join(REPO_ROOT, "test/fixtures/search-held-out-queries-e3.json"), true);
    const result = evaluateStyles(
      set.queries,
      (item) => index.search(item.query, { limit: 5 }),
      (path) => dirByPath.get(path),
    );
    for (const style of result.styles)
      console.log(
        `held-out set E3 ${style.style}: n ${style.count}, top-1 ${style.top1.toFixed(3)}, top-5 ${style.top5.toFixed(3)}, ` +
          `AUC ${style.auc.toFixed(3)}, confident ${style.confident.toFixed(3)}, confident and wrong ${style.confidentWrong.toFixed(3)}`,
      );
    console.log(`held-out set E3 off-topic confident: ${result.offTopicConfident}/${result.offTopic}`);
    const all = result.styles.find((style) => style.style === "all")!;
    expect(all.count).toBe(125);
    expect(result.offTopic).toBe(50);
    expect(all.top5).toBeGreaterThanOrEqual(0.85);
    expect(all.auc).toBeGreaterThanOrEqual(0.8);
    // Scored once: 4 of 50 (8%, over the 5% goal) and 1 of 125; these bounds catch a regression, not the goal.
    expect(result.offTopicConfident).toBeLessThanOrEqual(6);
    expect(all.confidentWrong).toBeLessThanOrEqual(0.03);
  });
});
