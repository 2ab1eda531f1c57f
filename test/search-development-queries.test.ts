// DEVELOPMENT SETS, all tuned on (not held out):
// - test/fixtures/search-development-queries-a.json: 60 real queries of six kinds and 15 off-topic ones, written blind
//   (by someone who never saw the search code), then used while building the ranking and the score calibration.
// - test/fixtures/search-development-queries-b.json: 120 real queries of six kinds and 40 off-topic ones, written from
//   the corpus's SKILL.md files alone; scored once as a held-out set, then used to tune the calibration.
// - test/fixtures/search-development-queries-c.json: 180 real queries of six kinds and 60 off-topic ones, written from
//   the corpus's SKILL.md files by a helper that never saw the search code; scored once as a held-out set
//   (2026-11-23), then looked at while tuning the weight of words no skill knows.
// - test/fixtures/search-development-queries-d.json: 180 real queries of six kinds and 60 off-topic ones, written the
//   same way; scored once as a held-out set (2026-11-23), then looked at while choosing what `confident` means
//   (threshold and margin, docs/design/search-tuning.md), so a development set since.
// All of them (with E1–E5c) were used to fit the calibrated confidence model (confidence-model.ts).
// Every set: at most 5% of off-topic requests confident, at most 2% of real ones confident with a wrong first result.
// The five-style sets E1, E2 and E3 are in test/search-style-sets.test.ts; the held-out sets E4a–c in
// test/search-held-out-queries.test.ts (development sets too since the confidence model was fitted on them).
// The bounds are floors under the measured figures (docs/search.md), so a regression fails but small changes do not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory, type SkillRegistry } from "@skillgraph/core";
import { evaluateSearch, type LabelledQuery } from "../bench/support/search-eval.js";
import { CORPUS_AVAILABLE, CORPUS_DIR, REPO_ROOT } from "./support/shared-paths.js";

interface SetAQuery {
  query: string;
  expected: string[];
  kind: string;
}

/** Sets B and C: one expected skill per query. */
interface SetBQuery {
  id: string;
  query: string;
  kind: string;
  /** Skill name (null for off-topic). */
  expected: string | null;
  expectedFolder?: string;
}

const fixture = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures", name), "utf8")) as unknown;
const setA = fixture("search-development-queries-a.json") as SetAQuery[];
const setB = (fixture("search-development-queries-b.json") as { queries: SetBQuery[] }).queries;
const setC = (fixture("search-development-queries-c.json") as { queries: SetBQuery[] }).queries;
const setD = (fixture("search-development-queries-d.json") as { queries: SetBQuery[] }).queries;
const folderOf = (path: string) => path.slice(CORPUS_DIR.length + 1).replace(/\/SKILL\.md$/, "");

describe.skipIf(!CORPUS_AVAILABLE)(
  "search on the development query sets over the corpus (skipped when ../shared/corpus is not found)",
  () => {
    let registry: SkillRegistry;
    beforeAll(async () => {
      registry = await createSkillRegistry({
        sources: [skillsFromDirectory(join(CORPUS_DIR, "skills"))],
        snapshot: false,
      });
    });

    it("set A: a right skill in the top 5 for at least 85% of real queries, no off-topic query confident", () => {
      const figures = evaluateSearch(registry, setA, folderOf);
      const confidentOffTopic = setA.filter(
        (item) => item.expected.length === 0 && registry.search(item.query, { limit: 1 })[0]?.confident,
      );
      console.log(
        `development set A: ${figures.real} real, ${figures.offTopic} off-topic; top-1 ${figures.top1.toFixed(3)}, ` +
          `top-5 ${figures.top5.toFixed(3)}, AUC ${figures.auc.toFixed(3)}, confident real ${figures.realConfident.toFixed(3)}, ` +
          `confident and wrong ${figures.realConfidentWrong.toFixed(3)}, off-topic ${confidentOffTopic.length}; missed: ${figures.misses.join(" | ")}`,
      );
      expect(figures.realConfidentWrong).toBeLessThanOrEqual(0.03);
      expect(figures.real).toBeGreaterThanOrEqual(60);
      // 0.95 with the hand-written product glossary, 0.883 since it was removed: described-product queries
      // ("the Japanese business chat app") need knowledge no skill text holds; the `embeddings` option is the way there.
      expect(figures.top5).toBeGreaterThanOrEqual(0.85);
      expect(figures.auc).toBeGreaterThanOrEqual(0.97);
      expect(confidentOffTopic.map((item) => item.query)).toEqual([]);
    });

    /** Figures of a set in the B/C format; fails when an expected folder is not in the corpus. */
    function figuresOf(label: string, set: readonly SetBQuery[]) {
      // A skill whose name another corpus skill also uses is shadowed in a registry: the same-named winner counts too.
      const winnerFolder = (name: string | null) =>
        name === null ? undefined : registry.get(name) && folderOf(registry.get(name)!.file);
      const labelled: LabelledQuery[] = set.map((item) => ({
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
      for (const kind of [...new Set(set.map((item) => item.kind))].filter((kind) => kind !== "off-topic")) {
        const subset = labelled.filter((_, i) => set[i]!.kind === kind);
        byKind[kind] = evaluateSearch(registry, subset, folderOf).top5.toFixed(2);
      }
      console.log(
        `development set ${label}: ${figures.real} real, ${figures.offTopic} off-topic; ` +
          `top-1 ${figures.top1.toFixed(3)}, top-5 ${figures.top5.toFixed(3)}, AUC ${figures.auc.toFixed(3)}, ` +
          `confident real ${figures.realConfident.toFixed(3)}, confident and wrong ${figures.realConfidentWrong.toFixed(3)}, ` +
          `confident off-topic ${figures.offTopicConfident.toFixed(3)}; top-5 by kind ${JSON.stringify(byKind)}`,
      );
      // What `confident` promises (docs/search.md), on every set.
      expect(figures.offTopicConfident).toBeLessThanOrEqual(0.05);
      expect(figures.realConfidentWrong).toBeLessThanOrEqual(0.02);
      return figures;
    }

    it("set B: top-5, abstention AUC and confident shares above their floors", () => {
      const figures = figuresOf("B", setB);
      expect(figures.real).toBeGreaterThanOrEqual(100);
      expect(figures.offTopic).toBeGreaterThanOrEqual(30);
      expect(figures.top5).toBeGreaterThanOrEqual(0.9);
      expect(figures.auc).toBeGreaterThanOrEqual(0.94);
      // 0.958 confident with 8 of 40 off-topic confident at threshold 0.3 without a margin; 0.708 and 1 of 40 with
      // threshold 0.45 and lead 0.03; 0.708 and 1 of 40 with the calibrated model (more right, fewer wrong ones).
      expect(figures.realConfident).toBeGreaterThanOrEqual(0.65);
    });

    it("set C: top-5, abstention AUC and confident shares above their floors", () => {
      const figures = figuresOf("C", setC);
      expect(figures.real).toBe(180);
      expect(figures.offTopic).toBe(60);
      expect(figures.top5).toBeGreaterThanOrEqual(0.95);
      expect(figures.auc).toBeGreaterThanOrEqual(0.94);
      // 0.911 confident with 7 of 60 off-topic confident at threshold 0.3 without a margin; about 0.55 and 0 with
      // threshold 0.45 and lead 0.03; 0.572 and 0 with the calibrated model.
      expect(figures.realConfident).toBeGreaterThanOrEqual(0.5);
    });

    it("set D: top-5, abstention AUC and confident shares above their floors", () => {
      const figures = figuresOf("D", setD);
      expect(figures.real).toBe(180);
      expect(figures.offTopic).toBe(60);
      expect(figures.top5).toBeGreaterThanOrEqual(0.95);
      expect(figures.auc).toBeGreaterThanOrEqual(0.95);
      // 0.556 with threshold 0.45 and lead 0.03; 0.578 with the calibrated model.
      expect(figures.realConfident).toBeGreaterThanOrEqual(0.52);
    });
  },
);
