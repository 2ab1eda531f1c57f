import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { CORPUS_AVAILABLE, CORPUS_SKILLS_DIR } from "./support/shared-paths.js";

function countSkillFiles(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) count += countSkillFiles(full);
    else if (name === "SKILL.md") count++;
  }
  return count;
}

describe.skipIf(!CORPUS_AVAILABLE)(
  "registry over the real-world corpus (skipped when ../shared/corpus is not found)",
  () => {
    it("loads every corpus skill leniently: each one is listed or reported as shadowed, none refused", async () => {
      const total = countSkillFiles(CORPUS_SKILLS_DIR);
      expect(total).toBe(187);
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(CORPUS_SKILLS_DIR)] });
      expect(registry.diagnostics().filter((d) => d.severity === "error")).toEqual([]);
      expect(registry.list().length + registry.shadowed().length).toBe(total);
      // Real collections reuse names across repositories; the loser is reported, never merged.
      expect(
        registry
          .shadowed()
          .map((s) => s.name)
          .sort(),
      ).toEqual(["generate-image", "skill-creator"]);
    });

    it("finds the nested qdrant skills three levels down", async () => {
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(CORPUS_SKILLS_DIR)] });
      const nested = registry.list().filter((skill) => skill.dir.includes("qdrant-scaling/scaling-data-volume/"));
      expect(nested.length).toBeGreaterThan(0);
    });

    it("refuses rule-breaking corpus skills in strict mode and says why", async () => {
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(CORPUS_SKILLS_DIR)], strict: true });
      const refused = registry.diagnostics().filter((d) => d.severity === "error");
      expect(refused.length).toBeGreaterThan(0);
      expect(registry.list().every((skill) => skill.diagnostics.every((d) => d.severity !== "error"))).toBe(true);
      expect(refused.some((d) => d.code === "name-dir-mismatch" && d.message.includes("SKILL.md"))).toBe(true);
    });
  },
);
