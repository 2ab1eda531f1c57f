import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SKILL_DIAGNOSTIC_CODES } from "../packages/core/src/errors/diagnostic-codes.js";
import { loadSkill } from "../packages/core/src/skill/load-skill.js";
import { readSkillProperties } from "../packages/core/src/skill/read-skill-properties.js";
import { validateSkill } from "../packages/core/src/skill/validate-skill.js";
import { CORPUS_AVAILABLE, CORPUS_DIR } from "./support/shared-paths.js";

// Differential test against the reference validator (skills-ref): its verdict on every corpus skill is recorded in
// skills-ref-results.json; ours must agree on validity and on the set of rule codes with severity error.
const corpus = CORPUS_DIR;

interface ReferenceVerdict {
  valid: boolean;
  rules: string[];
  errors: string[];
  properties?: Record<string, unknown>;
  read_properties_error?: string;
}

const verdicts = (
  CORPUS_AVAILABLE ? JSON.parse(readFileSync(join(corpus, "skills-ref-results.json"), "utf8")) : {}
) as Record<string, ReferenceVerdict>;
const entries = Object.entries(verdicts);
const origin = { sourceId: "corpus", layer: "explicit", kind: "directory" } as const;

describe.skipIf(!CORPUS_AVAILABLE)(
  "conformance with the reference validator on the real-world corpus (skipped when ../shared/corpus is not found)",
  () => {
    it("has the 187 recorded skills", () => {
      expect(entries).toHaveLength(187);
    });

    it.each(entries)("validateSkill agrees with skills-ref on %s", async (path, verdict) => {
      const result = await validateSkill(join(corpus, path));
      const errorCodes = [
        ...new Set(result.issues.filter((issue) => issue.severity === "error").map((issue) => issue.code)),
      ].sort();
      expect({ valid: result.success, rules: errorCodes }).toEqual({
        valid: verdict.valid,
        rules: [...new Set(verdict.rules)].sort(),
      });
      for (const issue of result.issues) expect(Object.keys(SKILL_DIAGNOSTIC_CODES)).toContain(issue.code);
    });

    it.each(entries)("loadSkill loads %s leniently, with its name and description", async (path, verdict) => {
      const skill = await loadSkill(join(corpus, path), { origin });
      expect(skill.name).not.toBe("");
      expect(skill.description).not.toBe("");
      expect(skill.hash).toMatch(/^[0-9a-f]{64}$/);
      if (verdict.properties !== undefined) {
        expect(skill.name).toBe(verdict.properties.name);
        expect(skill.description).toBe(verdict.properties.description);
      }
      const errors = skill.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
      expect(errors > 0).toBe(!verdict.valid);
    });

    it.each(entries)("readSkillProperties matches read-properties on %s", async (path, verdict) => {
      if (verdict.read_properties_error !== undefined) {
        await expect(readSkillProperties(join(corpus, path))).rejects.toThrow();
        return;
      }
      const properties = await readSkillProperties(join(corpus, path));
      const expected = verdict.properties ?? {};
      expect(properties.name).toBe(expected.name);
      expect(properties.description).toBe(expected.description);
      expect(properties.license).toBe(expected.license);
      expect(properties.compatibility).toBe(expected.compatibility);
      expect(properties.allowedTools).toEqual(expected["allowed-tools"]);
      expect(properties.metadata).toEqual(expected.metadata);
    });
  },
);
