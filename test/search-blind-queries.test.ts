// DEVELOPMENT SET: test/fixtures/blind-search-queries.json was written blind (by someone who never saw the search code),
// but the ranking and the score calibration have since been tuned while looking at it, so its figures are no longer
// held out. The held-out figures come from the frozen set (test/search-frozen-queries.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { CORPUS_AVAILABLE, CORPUS_DIR, REPO_ROOT } from "./support/shared-paths.js";

interface BlindQuery {
  query: string;
  expected: string[];
  kind: string;
}

const queries = JSON.parse(
  readFileSync(join(REPO_ROOT, "test/fixtures/blind-search-queries.json"), "utf8"),
) as BlindQuery[];

describe.skipIf(!CORPUS_AVAILABLE)(
  "search on the blind development set over the corpus (skipped when ../shared/corpus is not found)",
  () => {
    it("puts a right skill in the top 5 for at least 85% of the real queries and marks no off-topic query confident", async () => {
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(join(CORPUS_DIR, "skills"))] });
      const skillDir = (path: string) => path.slice(CORPUS_DIR.length + 1).replace(/\/SKILL\.md$/, "");
      const real = queries.filter((item) => item.expected.length > 0);
      const misses = real.filter(
        (item) => !registry.search(item.query, { limit: 5 }).some((hit) => item.expected.includes(skillDir(hit.path))),
      );
      const confidentOffTopic = queries.filter(
        (item) => item.expected.length === 0 && registry.search(item.query, { limit: 1 })[0]?.confident,
      );
      const topFive = (real.length - misses.length) / real.length;
      console.log(
        `blind queries: top-5 ${topFive.toFixed(3)} (${real.length} real), off-topic confident ${confidentOffTopic.length}; missed: ${misses.map((m) => m.query).join(" | ")}`,
      );
      expect(real.length).toBeGreaterThanOrEqual(60);
      // 0.95 with the hand-written product glossary, 0.883 since it was removed (issue 12): described-product queries
      // ("the Japanese business chat app") need knowledge no skill text holds; the `embeddings` option is the way there.
      expect(topFive).toBeGreaterThanOrEqual(0.85);
      expect(confidentOffTopic.map((item) => item.query)).toEqual([]);
    });
  },
);
