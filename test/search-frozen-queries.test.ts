// Search quality on the FROZEN query set (test/fixtures/frozen-search-queries.json): written from the corpus's
// SKILL.md files alone by a helper that never saw the ranking code, frozen before the search calibration of issue 12
// was finished, and scored once after it. Nothing was tuned on it. The bounds below are sanity floors (far under the
// figures measured when it was first scored, see docs/search.md), so a regression fails but noise does not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { evaluateSearch } from "../bench/support/search-eval.js";
import { CORPUS_AVAILABLE, CORPUS_DIR, REPO_ROOT } from "./support/shared-paths.js";

interface FrozenQuery {
  id: string;
  query: string;
  kind: string;
  /** Skill name (null for off-topic). */
  expected: string | null;
  expectedFolder?: string;
}

const frozen = JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures/frozen-search-queries.json"), "utf8")) as {
  frozenAt: string;
  queries: FrozenQuery[];
};

describe.skipIf(!CORPUS_AVAILABLE)(
  "search on the frozen query set (held out from all tuning; skipped when ../shared/corpus is not found)",
  () => {
    it("reports top-1, top-5 and abstention AUC, within sanity bounds", async () => {
      const registry = await createSkillRegistry({
        sources: [skillsFromDirectory(join(CORPUS_DIR, "skills"))],
        snapshot: false,
      });
      const folderOf = (path: string) => path.slice(CORPUS_DIR.length + 1).replace(/\/SKILL\.md$/, "");
      // A skill whose name another corpus skill also uses is shadowed in a registry: the same-named winner counts too.
      const winnerFolder = (name: string | null) =>
        name === null ? undefined : registry.get(name) && folderOf(registry.get(name)!.file);
      const labelled = frozen.queries.map((item) => ({
        query: item.query,
        expected: item.expectedFolder ? [item.expectedFolder, winnerFolder(item.expected) ?? item.expectedFolder] : [],
      }));
      const unknown = labelled.filter(
        (item) =>
          item.expected.length > 0 && !registry.list().some((skill) => item.expected.includes(folderOf(skill.file))),
      );
      expect(unknown).toEqual([]);
      const figures = evaluateSearch(registry, labelled, folderOf);
      const byKind: Record<string, string> = {};
      for (const kind of [...new Set(frozen.queries.map((item) => item.kind))].filter((kind) => kind !== "off-topic")) {
        const subset = labelled.filter((_, i) => frozen.queries[i]!.kind === kind);
        byKind[kind] = evaluateSearch(registry, subset, folderOf).top5.toFixed(2);
      }
      console.log(
        `frozen set (${frozen.frozenAt}): ${figures.real} real, ${figures.offTopic} off-topic; top-1 ${figures.top1.toFixed(3)}, top-5 ${figures.top5.toFixed(3)}, ` +
          `AUC ${figures.auc.toFixed(3)}, confident real ${figures.realConfident.toFixed(3)}, confident off-topic ${figures.offTopicConfident.toFixed(3)}; top-5 by kind ${JSON.stringify(byKind)}`,
      );
      expect(figures.real).toBeGreaterThanOrEqual(100);
      expect(figures.offTopic).toBeGreaterThanOrEqual(30);
      expect(figures.top5).toBeGreaterThanOrEqual(0.6);
      expect(figures.auc).toBeGreaterThanOrEqual(0.8);
    });
  },
);
